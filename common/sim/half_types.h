// CUDA's 16-bit floating-point types for g++: storage only, with the conversions kernels call
// (__half2float, __float2half_rn, __bfloat162float, __float2bfloat16_rn). Arithmetic on them is not
// provided: ReduceLab's kernels convert to float first, as they should on the GPU too. The one
// exception, at the end: the packed max/min that lesson 18's 16-bit argmax folds a load with.
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
// CUDA's default rounding is to nearest
inline __half __float2half(float f) { return __float2half_rn(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return rl::bfloat16_bits_to_float(b.bits); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  return __nv_bfloat16{rl::float_to_bfloat16_bits(f)};
}
inline __nv_bfloat16 __float2bfloat16(float f) { return __float2bfloat16_rn(f); }

// Pairs of 16-bit floats, as CUDA packs them in one 32-bit register (x in the low half), and the
// few packed operations kernels use: the NaN-propagating max/min of two pairs lane by lane, and
// either lane widened to float. The GPU does each in one instruction; here they go through float,
// which gives the same answer: every 16-bit value is a float, and max/min never round.
struct alignas(4) __half2 {
  __half x, y;
};
struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
};
static_assert(sizeof(__half2) == 4 && sizeof(__nv_bfloat162) == 4);

namespace rl::sim_half {
// CUDA's *_nan forms: NaN in either operand gives the canonical NaN (0x7fff), else the max/min.
// Only the lanes that are NaN matter to callers, not the NaN's bits, but keep CUDA's anyway.
template <class H, class ToFloat>
H max_or_nan(H a, H b, ToFloat to_float, bool largest) {
  const float fa = to_float(a), fb = to_float(b);
  if (fa != fa || fb != fb) return H{0x7fff};
  return (largest ? fa > fb : fa < fb) ? a : b;
}
}  // namespace rl::sim_half

inline __half2 __hmax2_nan(__half2 a, __half2 b) {
  return {rl::sim_half::max_or_nan(a.x, b.x, __half2float, true),
          rl::sim_half::max_or_nan(a.y, b.y, __half2float, true)};
}
inline __half2 __hmin2_nan(__half2 a, __half2 b) {
  return {rl::sim_half::max_or_nan(a.x, b.x, __half2float, false),
          rl::sim_half::max_or_nan(a.y, b.y, __half2float, false)};
}
inline __nv_bfloat162 __hmax2_nan(__nv_bfloat162 a, __nv_bfloat162 b) {
  return {rl::sim_half::max_or_nan(a.x, b.x, __bfloat162float, true),
          rl::sim_half::max_or_nan(a.y, b.y, __bfloat162float, true)};
}
inline __nv_bfloat162 __hmin2_nan(__nv_bfloat162 a, __nv_bfloat162 b) {
  return {rl::sim_half::max_or_nan(a.x, b.x, __bfloat162float, false),
          rl::sim_half::max_or_nan(a.y, b.y, __bfloat162float, false)};
}
inline float __low2float(__half2 h) { return __half2float(h.x); }
inline float __high2float(__half2 h) { return __half2float(h.y); }
inline float __low2float(__nv_bfloat162 h) { return __bfloat162float(h.x); }
inline float __high2float(__nv_bfloat162 h) { return __bfloat162float(h.y); }
