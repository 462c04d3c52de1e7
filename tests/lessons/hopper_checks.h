#pragma once
// Lessons 13 and 14's own checks (Hopper's means on lesson 12's single pass), beyond those every
// ladder lesson gets (ladder_checks.h), shared by the simulator and GPU suites: every plan exact around each block and cluster edge, the same bits
// from calls queued back to back (a launch that overlaps the one before it must not disturb it),
// and __reduce_add_sync's integer sum (int_sum, which the float ladder cannot run).
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <vector>

#include "common/host/course.h"
#include "common/host/input.h"
#include "tests/lessons/checks.h"
#include "tests/lessons/ladder_cases.h"

namespace rl::test {

// The plans of lessons 13 (the dependent launch), 14 (clusters, bulk copies, the libraries' block
// reduce) and 15 (lesson 13's plan recorded into a graph and replayed) on backend `b`.
inline Plans hopper_plans(Backend b) {
  Plans plans = plans_of(13, b);
  for (const Plan& p : plans_of(14, b)) plans.push_back(p);
  for (const Plan& p : plans_of(15, b)) plans.push_back(p);
  return plans;
}

// Lesson 14's int_sum kernel on backend B (hopper_int_sum.cu): the total it writes for `values`.
template <Backend B>
int int_sum_on(Device& device, const std::vector<int>& values);

// Sizes at each edge of a persistent grid of `block`-thread blocks, 16 floats a thread (lessons 13
// and 14's plans): one under, at and one past 1, 2, 4, 8 and 16 blocks (a cluster of that size: the
// grid is whole clusters, some of them partly fed), with 0 and 1.
inline std::vector<std::uint64_t> cluster_edges(unsigned block) {
  std::vector<std::uint64_t> sizes{0, 1};
  for (std::uint64_t blocks : {1u, 2u, 4u, 8u, 16u, 17u}) {
    const std::uint64_t at = blocks * block * 16;
    sizes.insert(sizes.end(), {at - 1, at, at + 1});
  }
  return sizes;
}

// Each of lessons 13 and 14's plans on integer data at each cluster edge: exact.
inline void check_cluster_edges(Device& device, std::initializer_list<unsigned> blocks) {
  for (const Plan& r : hopper_plans(device.backend()))
    for (const unsigned block : blocks)
      for (const std::uint64_t n : cluster_edges(block)) {
        const CaseResult c = run_case(device, r, n, block, 11, Distribution::integers);
        INFO("lesson " << r.lesson << " " << r.variant << " block " << block << " n " << n
                       << ": got " << c.check.got << ", expected " << c.check.reference.sum);
        CHECK(c.check.verified);
        CHECK(c.check.got == c.check.reference.sum);
      }
}

// `calls` reductions of the same input queued back to back, each into its own output, sharing one
// scratch buffer, with no synchronisation between them: every one the same bits, and right.
inline void check_back_to_back(Device& device, std::uint64_t n, unsigned calls) {
  std::vector<float> host(n);
  fill_input(host, 5, Distribution::integers);
  double expected = 0.0;
  for (float v : host) expected += v;
  DeviceBuffer in(device, n * sizeof(float));
  if (n) device.upload(in.get(), host.data(), n * sizeof(float));
  DeviceBuffer out(device, calls * sizeof(float));
  for (const Plan& r : hopper_plans(device.backend())) {
    const unsigned block = r.preferred_block;
    DeviceBuffer scratch(device, r.scratch_bytes(n, block, device.shape()));
    device.poison(out.get(), calls * sizeof(float));
    for (unsigned k = 0; k < calls; ++k)
      r.reduce({in.get<float>(), out.get<float>() + k, n, block, scratch.get(), device.shape(),
                device.stream()});
    device.synchronize();
    std::vector<float> got(calls);
    device.download(got.data(), out.get(), calls * sizeof(float));
    const std::set<float> distinct(got.begin(), got.end());
    INFO("lesson " << r.lesson << " " << r.variant << " n " << n << ": " << distinct.size()
                   << " distinct results, the first " << got.front() << ", expected " << expected);
    CHECK(distinct.size() == 1);
    CHECK(got.front() == expected);  // integer data: exact
  }
}

// int_sum over `n` integers from -8 to 8 (every partial sum exact in 32 bits up to 2^27 of them)
// against the host's sum.
template <Backend B>
void check_int_sum(Device& device, std::uint64_t n) {
  std::vector<int> values(n);
  std::uint64_t state = 0x9e3779b97f4a7c15ULL ^ n;
  long long expected = 0;
  for (int& v : values) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<int>(state >> 59) - 8 + static_cast<int>((state >> 40) & 1);
    expected += v;
  }
  INFO("int_sum n " << n);
  CHECK(int_sum_on<B>(device, values) == expected);
}

}  // namespace rl::test
