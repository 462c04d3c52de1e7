// The CPU reference and the tolerance are what every kernel test trusts, so they are tested against
// exact arithmetic: integer-valued data, whose sum is computed exactly in 64-bit integers.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "common/host/input.h"
#include "common/host/reference.h"

using namespace rl;

namespace {

// Exact sum of integer-valued floats, independent of any floating-point summation.
std::int64_t exact_integer_sum(const std::vector<float>& v) {
  std::int64_t s = 0;
  for (float x : v) s += static_cast<std::int64_t>(x);
  return s;
}

// Pairwise float32 sum: the shape of a reduction tree, with float32 rounding at every node.
float pairwise_float(const float* p, std::size_t n) {
  if (n == 0) return 0.0f;
  if (n == 1) return p[0];
  return pairwise_float(p, n / 2) + pairwise_float(p + n / 2, n - n / 2);
}

}  // namespace

TEST_CASE("reference sum is exact on integer data", "[reference]") {
  for (std::size_t n : {0u, 1u, 1000u, 1u << 20, (1u << 23) + 3}) {
    std::vector<float> v(n);
    fill_input(v, 7, Distribution::integers);
    const Reference r = reference_sum(v);
    CAPTURE(n);
    CHECK(r.sum == static_cast<double>(exact_integer_sum(v)));
    CHECK(r.abs_sum == r.sum);
    CHECK(r.n == n);
  }
}

TEST_CASE("reference sum keeps what naive double summation loses", "[reference]") {
  // 1 + 2^53 - 2^53 in double, added left to right, loses the 1; Neumaier's carry keeps it.
  const float big = 0x1p60f;
  std::vector<float> v{1.0f, big, 1.0f, -big};
  double naive = 0.0;
  for (float x : v) naive += x;
  REQUIRE(naive != 2.0);
  CHECK(reference_sum(v).sum == 2.0);
}

TEST_CASE("tolerance bounds a real float32 tree sum", "[tolerance]") {
  for (std::size_t n : {1u, 33u, 1000u, 65537u, 1u << 20}) {
    std::vector<float> v(n);
    fill_input(v, 11, Distribution::uniform);
    const Reference r = reference_sum(v);
    const float tree = pairwise_float(v.data(), n);
    CAPTURE(n, tree, r.sum);
    CHECK(within_tolerance(tree, r, summation_depth(n, 0)));
  }
}

TEST_CASE("tolerance catches a lost or doubled element", "[tolerance]") {
  for (std::size_t n : {2u, 33u, 257u, 1000u, 65537u}) {
    std::vector<float> v(n);
    fill_input(v, 3, Distribution::positive);
    const Reference r = reference_sum(v);
    const std::uint64_t depth = summation_depth(n, 0);
    CAPTURE(n, tolerance(r, depth));
    CHECK(within_tolerance(r.sum, r, depth));
    CHECK_FALSE(within_tolerance(r.sum - v[n / 2], r, depth));  // one element dropped
    CHECK_FALSE(within_tolerance(r.sum + v[0], r, depth));      // one element counted twice
  }
}

TEST_CASE("tolerance grows with depth and rejects NaN", "[tolerance]") {
  std::vector<float> v(4096);
  fill_input(v, 5, Distribution::uniform);
  const Reference r = reference_sum(v);
  CHECK(tolerance(r, 10) < tolerance(r, 100));
  CHECK(tolerance(r, 100) < tolerance(r, 1000));
  CHECK_FALSE(within_tolerance(std::nan(""), r, 13));
  CHECK(summation_depth(1, 0) == 1);
  CHECK(summation_depth(256, 0) == 9);
  CHECK(summation_depth(257, 4) == 4 + 9 + 1);
}

TEST_CASE("exact data has an exact reference and no tolerance; other data keeps its bound",
          "[reference]") {
  std::vector<float> v(1u << 20);
  fill_input(v, 7, Distribution::integers);  // sum about 4.7 million: below 2^24
  const Reference ints = reference_sum(v);
  CHECK(ints.exact);
  CHECK(tolerance(ints, 100) == 0.0);
  CHECK(within_tolerance(ints.sum, ints, 100));
  CHECK_FALSE(within_tolerance(ints.sum - 1, ints, 100));  // one element of 1 lost: seen
  std::vector<float> more((1u << 23) + 3);
  fill_input(more, 7, Distribution::integers);  // sum about 38 million: float32 sums round
  CHECK_FALSE(reference_sum(more).exact);
  fill_input(v, 7, Distribution::uniform);
  CHECK_FALSE(reference_sum(v).exact);
  CHECK(tolerance(reference_sum(v), 100) > 0.0);
  v.assign(v.size(), 0.0f);
  v[3] = 0.5f;  // whole numbers only
  CHECK_FALSE(reference_sum(v).exact);
}

TEST_CASE("spikes are exact at any size, so one lost block always shows", "[reference]") {
  // Made and summed a slice at a time, from an offset, as lesson 22's GPUs make their shares.
  const std::uint64_t n = (std::uint64_t{1} << 24) + 17;
  const Reference r = reference_of_stream(3, Distribution::spikes, 1000, n);
  CHECK(r.exact);
  CHECK(r.n == n);
  CHECK((r.sum == std::floor(n / 256.0) || r.sum == std::ceil(n / 256.0)));
  CHECK(tolerance(r, 1u << 20) == 0.0);  // even a deep plan: no rounding hides anything
  CHECK_FALSE(within_tolerance(r.sum - 1, r, 1u << 20));
  // At 2^32 elements (the most a 32-bit share could hold) there are exactly 2^24 spikes: every
  // partial sum of ones up to 2^24 is exact in float32. One more and the claim would fail.
  for (std::uint64_t first_spike : {0u, 1u, 255u}) {  // where the seeded phase puts the first one
    const std::uint64_t big = std::uint64_t{1} << 32;
    const std::uint64_t count = (big - first_spike + spike_spacing - 1) / spike_spacing;
    CAPTURE(first_spike);
    CHECK(count == (std::uint64_t{1} << 24));
    CHECK(static_cast<double>(static_cast<float>(count)) == static_cast<double>(count));
  }
}
