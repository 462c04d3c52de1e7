// Inputs must be reproducible from the seed, never zero, and inside their distribution's range.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/host/input.h"

using namespace rl;

TEST_CASE("inputs are reproducible, seed-dependent and never zero", "[input]") {
  for (auto d : {Distribution::uniform, Distribution::positive, Distribution::integers}) {
    std::vector<float> a(100000), b(100000), c(100000);
    fill_input(a, 42, d);
    fill_input(b, 42, d);
    fill_input(c, 43, d);
    CAPTURE(to_string(d));
    CHECK(a == b);
    CHECK(a != c);
    CHECK(std::none_of(a.begin(), a.end(), [](float x) { return x == 0.0f; }));
  }
}

TEST_CASE("distributions stay in range and are not degenerate", "[input]") {
  std::vector<float> u(1 << 16), p(1 << 16), i(1 << 16);
  fill_input(u, 9, Distribution::uniform);
  fill_input(p, 9, Distribution::positive);
  fill_input(i, 9, Distribution::integers);
  CHECK(std::all_of(u.begin(), u.end(), [](float x) { return x > -1.0f && x < 1.0f; }));
  CHECK(std::count_if(u.begin(), u.end(), [](float x) { return x < 0; }) > (1 << 14));  // both signs
  CHECK(std::all_of(p.begin(), p.end(), [](float x) { return x >= 0.5f && x < 1.5f; }));
  CHECK(std::all_of(i.begin(), i.end(), [](float x) { return x >= 1 && x <= 8 && x == std::floor(x); }));
  CHECK(std::count(i.begin(), i.end(), 8.0f) > 0);
}

TEST_CASE("a slice of the stream equals the same values made one by one", "[input]") {
  std::vector<float> whole(1 << 23);  // large enough to be filled on several threads
  fill_input(whole, 77, Distribution::uniform);
  std::vector<float> slice(1000);
  fill_input(slice, 77, Distribution::uniform, 5'000'000);
  for (std::size_t k = 0; k < slice.size(); ++k) REQUIRE(slice[k] == whole[5'000'000 + k]);
  CHECK(input_value(77, Distribution::uniform, 123) == whole[123]);
}

TEST_CASE("distribution names round-trip", "[input]") {
  for (auto d : {Distribution::uniform, Distribution::positive, Distribution::integers})
    CHECK(parse_distribution(to_string(d)) == d);
  CHECK_FALSE(parse_distribution("zeros"));
}
