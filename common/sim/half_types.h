// CUDA's 16-bit floating-point types for g++: storage only, with the conversions kernels call
// (__half2float, __float2half_rn, __bfloat162float, __float2bfloat16_rn). Arithmetic on them is not
// provided: ReduceLab's kernels convert to float first, as they should on the GPU too.
#pragma once
#include <cstdint>

#include "common/half_bits.h"

struct alignas(2) __half {
    std::uint16_t bits;  // IEEE binary16, as in CUDA's __half_raw
};
struct alignas(2) __nv_bfloat16 {
    std::uint16_t bits;  // float's top 16 bits
};
static_assert(sizeof(__half) == 2 && sizeof(__nv_bfloat16) == 2);

inline float __half2float(__half h) { return rl::half_bits_to_float(h.bits); }
inline __half __float2half_rn(float f) { return __half{rl::float_to_half_bits(f)}; }
inline __half __float2half(float f) { return __float2half_rn(f); }  // CUDA's default rounding is to nearest
inline float __bfloat162float(__nv_bfloat16 b) { return rl::bfloat16_bits_to_float(b.bits); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16{rl::float_to_bfloat16_bits(f)}; }
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }
