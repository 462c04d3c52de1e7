// Lesson 22's split of N elements over K GPUs (a pure host function), and the streaming reference
// the lesson checks its GPU-made input against.
#include <catch2/catch.hpp>

#include <vector>

#include "common/host/input.h"
#include "common/host/reference.h"
#include "lessons/22_multi_gpu_nccl/split.h"

using namespace rl;

namespace {
// Contiguous, in order, covering [0, n) exactly once, sizes differing by at most one.
void check_split(std::uint64_t n, unsigned k) {
  const auto shares = split_evenly(n, k);
  CAPTURE(n, k);
  REQUIRE(shares.size() == k);
  std::uint64_t next = 0, smallest = n, largest = 0;
  for (const Share& s : shares) {
    CHECK(s.first == next);
    next = s.first + s.count;
    smallest = std::min(smallest, s.count);
    largest = std::max(largest, s.count);
  }
  CHECK(next == n);
  CHECK(largest - smallest <= 1);
  CHECK(shares.front().count == largest);  // the longer shares come first
}
}  // namespace

TEST_CASE("the split covers N exactly once in near-equal contiguous shares", "[split]") {
  for (unsigned k : {1u, 2u, 3u, 4u, 7u, 8u})
    for (std::uint64_t n :
         {0ull, 1ull, 2ull, 7ull, 8ull, 9ull, 1000003ull, (1ull << 30) + 3, (1ull << 36) + 5})
      check_split(n, k);
}

TEST_CASE("the split when N does not divide, N < K and N = 0", "[split]") {
  const auto odd = split_evenly(10, 4);  // 3 3 2 2
  CHECK(odd[0].count == 3);
  CHECK(odd[1].count == 3);
  CHECK(odd[2].count == 2);
  CHECK(odd[3].first == 8);
  const auto few = split_evenly(3, 8);  // three GPUs get one element, five get none
  for (unsigned p = 0; p < 8; ++p) CHECK(few[p].count == (p < 3 ? 1u : 0u));
  CHECK(few[7].first == 3);  // an empty share still has a place: it starts at the end
  for (const Share& s : split_evenly(0, 4)) CHECK(s.count == 0);
  CHECK_THROWS(split_evenly(10, 0));
}

TEST_CASE("the streaming reference equals the reference of the filled input",
          "[split][reference]") {
  for (auto d : {Distribution::uniform, Distribution::integers}) {
    std::vector<float> values(100003);
    fill_input(values, 5, d, 1000);
    const Reference whole = reference_sum(values);
    const Reference streamed = reference_of_stream(5, d, 1000, values.size());
    CHECK(streamed.sum == Approx(whole.sum).epsilon(1e-15));
    CHECK(streamed.abs_sum == Approx(whole.abs_sum).epsilon(1e-15));
    CHECK(streamed.n == whole.n);
  }
  CHECK(reference_of_stream(5, Distribution::uniform, 0, 0).sum == 0.0);
}
