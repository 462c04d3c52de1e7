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
