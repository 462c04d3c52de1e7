// Inputs must be reproducible from the seed, never zero, and inside their distribution's range.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
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
  // both signs
  CHECK(std::count_if(u.begin(), u.end(), [](float x) { return x < 0; }) > (1 << 14));
  CHECK(std::all_of(p.begin(), p.end(), [](float x) { return x >= 0.5f && x < 1.5f; }));
  CHECK(std::all_of(i.begin(), i.end(),
                    [](float x) { return x >= 1 && x <= 8 && x == std::floor(x); }));
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

TEST_CASE("spikes: a 1 in every 256 consecutive elements, 0 elsewhere, at a seeded phase",
          "[input]") {
  std::vector<float> v(1 << 16);
  fill_input(v, 5, Distribution::spikes);
  CHECK(std::all_of(v.begin(), v.end(), [](float x) { return x == 0.0f || x == 1.0f; }));
  for (std::size_t start :
       {std::size_t{0}, std::size_t{1}, std::size_t{77}, std::size_t{255}, v.size() - 256})
    CHECK(std::count(v.begin() + static_cast<std::ptrdiff_t>(start),
                     v.begin() + static_cast<std::ptrdiff_t>(start + 256), 1.0f) == 1);
  CHECK(std::count(v.begin(), v.end(), 1.0f) == (1 << 16) / 256);
  // The phase depends on the seed; a slice made elsewhere (a GPU's share) lines up with the whole.
  std::set<std::size_t> phases;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    fill_input(v, seed, Distribution::spikes);
    phases.insert(static_cast<std::size_t>(std::find(v.begin(), v.end(), 1.0f) - v.begin()));
  }
  CHECK(phases.size() > 1);
  std::vector<float> slice(1000);
  fill_input(slice, 8, Distribution::spikes, 3000);
  CHECK(std::equal(slice.begin(), slice.end(), v.begin() + 3000));
}

TEST_CASE("a run's spikes end with a 1, so a short last block holds one too", "[input]") {
  // 256 * 40 + 17 elements: the last 17 form a short block. For most seeds the stream's phase puts
  // no spike among them; the run's input has one there every time, and nothing else changes.
  const std::size_t n = 256 * 40 + 17;
  int tails_with_stream_spike = 0;
  for (std::uint64_t seed = 0; seed < 256; ++seed) {
    std::vector<float> stream(n), run(n);
    fill_input(stream, seed, Distribution::spikes);
    fill_run_input(run, seed, Distribution::spikes);
    tails_with_stream_spike += std::count(stream.end() - 17, stream.end(), 1.0f) > 0;
    CHECK(run.back() == 1.0f);
    CHECK(std::equal(run.begin(), run.end() - 1, stream.begin()));
  }
  CHECK(tails_with_stream_spike > 0);
  CHECK(tails_with_stream_spike < 64);  // about 17 in 256
  std::vector<float> uniform(100), stream(100);
  fill_run_input(uniform, 3, Distribution::uniform);  // other distributions: the stream unchanged
  fill_input(stream, 3, Distribution::uniform);
  CHECK(uniform == stream);
  std::vector<float> none;
  fill_run_input(none, 3, Distribution::spikes);  // an empty input stays empty
}

TEST_CASE("distribution names round-trip", "[input]") {
  for (auto d : {Distribution::uniform, Distribution::positive, Distribution::integers,
                 Distribution::spikes})
    CHECK(parse_distribution(to_string(d)) == d);
  CHECK_FALSE(parse_distribution("zeros"));
}
