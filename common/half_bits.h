#pragma once
// IEEE binary16 (CUDA's __half) and bfloat16 (__nv_bfloat16) as raw 16-bit patterns, converted to
// and from float in plain C++: the simulator's half types and the host's input generator and
// reference use these, so the CPU side never needs CUDA's headers. float -> 16 bits rounds to
// nearest, ties to even, as __float2half_rn and __float2bfloat16_rn do; 16 bits -> float is exact.
#include <bit>
#include <cstdint>

namespace rl {

constexpr float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  // inf, NaN (payload kept)
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  // Normal: rebias the exponent from 15 to 127 and widen the mantissa from 10 to 23 bits.
  return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

constexpr std::uint16_t float_to_half_bits(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t magnitude = x & 0x7fffffffu;
  if (magnitude > 0x7f800000u)  // NaN: stays NaN (quiet bit set), keeps what fits of the payload
    return static_cast<std::uint16_t>(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  // 65520 = 0x477ff000 lies halfway between 65504 (the largest half, odd mantissa) and 2^16: it and
  // everything above round to infinity.
  if (magnitude >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (magnitude >= 0x38800000u) {               // at least 2^-14: a normal half
    std::uint32_t m = magnitude - 0x38000000u;  // rebias the exponent: (127 - 15) << 23
    // round the 13 dropped bits to nearest, ties to even
    m += 0x0fffu + ((m >> 13) & 1u);
    // a carry may bump the exponent: still right
    return static_cast<std::uint16_t>(sign | (m >> 13));
  }
  // Below 2^-14: a subnormal half, k * 2^-24. Shift the full significand into units of 2^-24.
  const std::uint32_t exponent = magnitude >> 23;
  if (exponent < 102) return sign;  // below 2^-25: rounds to zero (2^-25 itself ties to the even 0)
  const std::uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u;
  const std::uint32_t shift = 126u - exponent;  // 14..24
  std::uint32_t k = significand >> shift;
  const std::uint32_t rest = significand & ((1u << shift) - 1u);
  const std::uint32_t halfway = 1u << (shift - 1u);
  // k may reach 0x400: the smallest normal
  if (rest > halfway || (rest == halfway && (k & 1u))) ++k;
  return static_cast<std::uint16_t>(sign | k);
}

constexpr float bfloat16_bits_to_float(std::uint16_t b) {
  return std::bit_cast<float>(std::uint32_t{b} << 16);
}

constexpr std::uint16_t float_to_bfloat16_bits(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  // NaN stays NaN
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  // bfloat16 is float's top half: round the low 16 bits to nearest, ties to even; overflow carries
  // into the exponent and reaches infinity exactly when it should.
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace rl
