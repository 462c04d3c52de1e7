// Programmatic dependent launch on the simulator: a grid launched with programmatic_dependency
// runs its first cluster up to cudaGridDependencySynchronize() before the grid launched before it
// runs at all, so a kernel that reads that grid's output before the call reads what was there
// before (poison here), the same on every run; one that synchronises first gets the right answer.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cooperative_groups.h>

#include "common/cuda_compat.h"
#include "tests/hopper/hopper_kernels.cuh"
#include "tests/hopper/references.h"
#include "tests/sim/schedules.h"

namespace cg = cooperative_groups;
using namespace hopper_test;
using Catch::Matchers::Contains;

namespace {

std::atomic<int> line_a{0};
std::string at(int line) { return "test_pdl.cpp:" + std::to_string(line); }

rl::sim::LaunchAttributes dependent(unsigned cluster = 1) {
  rl::sim::LaunchAttributes a;
  a.programmatic_dependency = true;
  a.cluster_x = cluster;
  return a;
}

__global__ void doubles_or_fails(const float* in, float* doubled, unsigned n) {
  if (blockIdx.x == 1 && threadIdx.x == 5) rl::sim::kernel_error("primary failed");
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) doubled[i] = 2.0f * in[i];
}

// An early cluster whose rank 1 does not wait for the primary and ends, while rank 0 waits and
// then reads rank 1's shared memory, which has gone.
__global__ void reads_after_neighbour_left(const float* doubled, float* out) {
  float* s = rl::dynamic_shared<float>();
  cg::cluster_group c = cg::this_cluster();
  s[threadIdx.x] = 1.0f;
  c.sync();
  if (c.block_rank() == 1) return;
  cudaGridDependencySynchronize();
  line_a = __LINE__, out[threadIdx.x] = doubled[threadIdx.x] + c.map_shared_rank(s, 1)[threadIdx.x];
}

struct Case {
  std::vector<float> in;
  std::vector<float> expected;  // per dependent block
};

Case make_case(unsigned n, unsigned block) {
  Case c;
  std::mt19937 rng(n);
  c.in.resize(n);
  for (auto& x : c.in) x = static_cast<float>(rng() % 64);  // small integers: sums are exact
  c.expected = doubled_block_sums(c.in, block);
  return c;
}

// Runs doubles then sums_after<SyncFirst> (as a dependent grid when `pdl`), with `doubled`
// poisoned first; returns the dependent's per-block totals.
template <bool SyncFirst>
std::vector<float> run_pair(const Case& c, unsigned block, bool pdl, unsigned cluster = 1) {
  const unsigned n = static_cast<unsigned>(c.in.size());
  const unsigned grid = static_cast<unsigned>(c.expected.size());
  std::vector<float> doubled(n);
  std::memset(doubled.data(), 0xFF, n * sizeof(float));
  std::vector<float> totals(grid, -1.0f);
  rl::sim::launch_ex("doubles", doubles, dim3(grid), dim3(block), 0, rl::sim::LaunchAttributes{},
                     c.in.data(), doubled.data(), n);
  rl::sim::LaunchAttributes attributes = dependent(cluster);
  attributes.programmatic_dependency = pdl;
  rl::sim::launch_ex("sums_after", sums_after<SyncFirst>, dim3(grid), dim3(block),
                     block * sizeof(float), attributes, doubled.data(), totals.data(), n);
  rl::sim::synchronize();
  for (unsigned i = 0; i < n; ++i) REQUIRE(doubled[i] == 2.0f * c.in[i]);  // the primary ran
  return totals;
}

}  // namespace

TEST_CASE("a dependent grid that synchronises before reading gets the primary's output", "[pdl]") {
  constexpr unsigned block = 64;
  for (unsigned n : {1u, 64u, 65u, 1000u}) {
    const Case c = make_case(n, block);
    for (const auto& opts : simtest::every_schedule(2)) {
      simtest::ScopedOptions scoped(opts);
      INFO("n " << n << " " << simtest::describe(opts));
      CHECK(run_pair<true>(c, block, true) == c.expected);
      if (c.expected.size() % 2 == 0) CHECK(run_pair<true>(c, block, true, 2) == c.expected);
    }
  }
}

TEST_CASE("a dependent grid that reads the primary's output before synchronising reads poison",
          "[pdl]") {
  constexpr unsigned block = 64;
  const Case c = make_case(1000, block);
  for (const auto& opts : simtest::every_schedule(2)) {
    simtest::ScopedOptions scoped(opts);
    INFO(simtest::describe(opts));
    const std::vector<float> totals = run_pair<false>(c, block, true);
    // the first block ran its reads before the primary: every run, every schedule
    CHECK(std::isnan(totals[0]));
    // without the attribute the primary has finished before the dependent starts, and the same
    // kernel happens to work: cudaGridDependencySynchronize() returns at once
    CHECK(run_pair<false>(c, block, false) == c.expected);
    CHECK(run_pair<true>(c, block, false) == c.expected);
  }
}

TEST_CASE("a dependent grid that never waits for the primary simply runs", "[pdl]") {
  constexpr unsigned block = 32, grid = 5;
  const Case c = make_case(grid * block, block);
  std::vector<float> doubled(grid * block);
  std::vector<unsigned> out(grid * block, 0);
  rl::sim::launch_ex("doubles", doubles, dim3(grid), dim3(block), 0, rl::sim::LaunchAttributes{},
                     c.in.data(), doubled.data(), grid * block);
  rl::sim::launch_ex("independent", independent, dim3(grid), dim3(block), 0, dependent(),
                     out.data());
  rl::sim::synchronize();
  for (unsigned i = 0; i < grid * block; ++i) {
    CHECK(out[i] == i);
    CHECK(doubled[i] == 2.0f * c.in[i]);
  }
}

TEST_CASE("a primary that fails while its dependent waits: the primary's error, then all is well",
          "[pdl][errors]") {
  constexpr unsigned block = 64, n = 256;
  const Case c = make_case(n, block);
  std::vector<float> doubled(n), totals(n / block);
  std::string msg;
  try {
    rl::sim::launch_ex("doubles_or_fails", doubles_or_fails, dim3(n / block), dim3(block), 0,
                       rl::sim::LaunchAttributes{}, c.in.data(), doubled.data(), n);
    rl::sim::launch_ex("sums_after", sums_after<true>, dim3(n / block), dim3(block),
                       block * sizeof(float), dependent(), doubled.data(), totals.data(), n);
    rl::sim::synchronize();
  } catch (const rl::sim::KernelError& e) {
    msg = e.what();
  }
  CHECK_THAT(msg, Contains("sim: kernel 'doubles_or_fails' block (1,0,0) thread (5,0,0): primary "
                           "failed"));
  CHECK(run_pair<true>(c, block, true) == c.expected);
}

TEST_CASE("an early cluster's block that reads a neighbour which did not wait and has ended",
          "[pdl][cluster][errors]") {
  const Case c = make_case(64, 64);
  std::vector<float> doubled(64), out(64);
  std::string msg;
  try {
    rl::sim::launch_ex("doubles", doubles, dim3(1), dim3(64), 0, rl::sim::LaunchAttributes{},
                       c.in.data(), doubled.data(), 64u);
    rl::sim::launch_ex("reads_after_neighbour_left", reads_after_neighbour_left, dim3(2), dim3(64),
                       64 * sizeof(float), dependent(2), doubled.data(), out.data());
    rl::sim::synchronize();
  } catch (const rl::sim::KernelError& e) {
    msg = e.what();
  }
  CHECK_THAT(msg, Contains("sim: kernel 'reads_after_neighbour_left' block (0,0,0) thread (0,0,0): "
                           "map_shared_rank at " +
                           at(line_a) +
                           ": block (1,0,0) (rank 1) of the cluster has exited, and its shared "
                           "memory with it"));
}
