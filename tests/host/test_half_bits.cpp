// The simulator's and the host's 16-bit float conversions: exact widening, round to nearest even.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>

#include "common/half_bits.h"

using namespace rl;

TEST_CASE("every half survives a round trip through float", "[host][half]") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float f = half_bits_to_float(h);
    if (std::isnan(f))
      CHECK(std::isnan(half_bits_to_float(float_to_half_bits(f))));
    else
      CHECK(float_to_half_bits(f) == h);
  }
}

TEST_CASE("float to half rounds to nearest, ties to even", "[host][half]") {
  // tie, to even
  CHECK(half_bits_to_float(float_to_half_bits(1.0f + 0x1p-11f)) == 1.0f);
  // tie, to even (up)
  CHECK(half_bits_to_float(float_to_half_bits(1.0f + 3 * 0x1p-11f)) == 1.0f + 0x1p-9f);
  CHECK(half_bits_to_float(float_to_half_bits(1.0f + 0x1p-11f + 0x1p-20f)) == 1.0f + 0x1p-10f);
  CHECK(half_bits_to_float(float_to_half_bits(65519.0f)) == 65504.0f);
  CHECK(std::isinf(half_bits_to_float(float_to_half_bits(65520.0f))));
  // tie, to even 0
  CHECK(half_bits_to_float(float_to_half_bits(0x1p-25f)) == 0.0f);
  CHECK(half_bits_to_float(float_to_half_bits(3 * 0x1p-26f)) == 0x1p-24f);
  // 1.5 units: to even 2
  CHECK(half_bits_to_float(float_to_half_bits(3 * 0x1p-25f)) == 2 * 0x1p-24f);
  // rounds up into the normals
  CHECK(half_bits_to_float(float_to_half_bits(0x1p-14f - 0x1p-25f)) == 0x1p-14f);
  CHECK(float_to_half_bits(-0.0f) == 0x8000);
  CHECK(std::isnan(half_bits_to_float(float_to_half_bits(std::nanf("")))));
}

TEST_CASE("float to bfloat16 rounds to nearest, ties to even", "[host][half]") {
  CHECK(bfloat16_bits_to_float(float_to_bfloat16_bits(1.0f + 0x1p-8f)) == 1.0f);
  CHECK(bfloat16_bits_to_float(float_to_bfloat16_bits(1.0f + 3 * 0x1p-8f)) == 1.0f + 0x1p-6f);
  CHECK(bfloat16_bits_to_float(float_to_bfloat16_bits(1.0f + 0x1p-8f + 0x1p-20f)) ==
        1.0f + 0x1p-7f);
  CHECK(std::isinf(
      bfloat16_bits_to_float(float_to_bfloat16_bits(std::bit_cast<float>(0x7f7fffffu)))));
  CHECK(std::isnan(bfloat16_bits_to_float(float_to_bfloat16_bits(std::nanf("")))));
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float f = bfloat16_bits_to_float(static_cast<std::uint16_t>(b));
    if (!std::isnan(f)) CHECK(float_to_bfloat16_bits(f) == b);
  }
}
