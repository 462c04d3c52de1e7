#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "common/cuda_compat.h"
#include "tests/hopper/hopper_kernels.cuh"
#include "tests/sim/schedules.h"

#ifndef RL_SIM_BUILD_TYPE
#define RL_SIM_BUILD_TYPE ""
#endif

namespace {

// Lesson 03's kernel, verbatim.
__global__ void sequential_addressing(const float* in, float* out, unsigned long long n) {
  float* s = rl::dynamic_shared<float>();
  unsigned tid = threadIdx.x;
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

}  // namespace

TEST_CASE("lesson-03 reduction of 2^20 floats runs in under 2 s on one host thread", "[perf]") {
  constexpr unsigned long long n = 1ull << 20;
  constexpr unsigned block = 256;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> in(n);
  double expected = 0;
  for (auto& x : in) {
    x = dist(rng);
    expected += x;
  }
  const unsigned grid1 = static_cast<unsigned>((n + block - 1) / block);  // 4096
  const unsigned grid2 = (grid1 + block - 1) / block;                     // 16
  std::vector<float> partial(grid1), partial2(grid2);

  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 1));
  const auto start = std::chrono::steady_clock::now();
  rl::sim::launch("sequential_addressing", sequential_addressing, dim3(grid1), dim3(block),
                  block * sizeof(float), in.data(), partial.data(), n);
  rl::sim::launch("sequential_addressing", sequential_addressing, dim3(grid2), dim3(block),
                  block * sizeof(float), partial.data(), partial2.data(),
                  static_cast<unsigned long long>(grid1));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  double total = 0;
  for (float p : partial2) total += p;
  std::printf(
      "[perf] sim: sequential_addressing 2^20 floats (4096 + 16 blocks of 256), 1 host thread, "
      "build '%s': %.3f s\n",
      RL_SIM_BUILD_TYPE, seconds);
  CHECK(std::fabs(total - expected) < 1e-3 * std::sqrt(static_cast<double>(n)));

  const bool optimised =
      std::strcmp(RL_SIM_BUILD_TYPE, "Debug") != 0 && std::strcmp(RL_SIM_BUILD_TYPE, "") != 0;
  if (optimised)
    CHECK(seconds < 2.0);
  else
    WARN("time limit not asserted in build type '" << RL_SIM_BUILD_TYPE << "'");
}

TEST_CASE(
    "a cluster reduction of 2^20 integers in 8-block clusters runs in under 4 s on one host "
    "thread",
    "[perf]") {
  constexpr unsigned long long n = 1ull << 20;
  constexpr unsigned block = 256, cluster = 8;
  std::vector<std::int64_t> in(n);
  std::mt19937 rng(4);
  std::int64_t expected = 0;
  for (auto& x : in) expected += x = static_cast<std::int64_t>(rng() % 1000);
  std::vector<std::int64_t> sums(n / (block * cluster), 0);

  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 1));
  const auto start = std::chrono::steady_clock::now();
  rl::sim::LaunchAttributes clusters;
  clusters.cluster_x = cluster;
  rl::sim::launch_ex("cluster_sum", hopper_test::cluster_sum, dim3(n / block), dim3(block),
                     block * sizeof(std::int64_t), clusters, in.data(), sums.data(), n);
  rl::sim::synchronize();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::int64_t total = 0;
  for (std::int64_t s : sums) total += s;
  std::printf(
      "[perf] sim: cluster_sum 2^20 integers (512 clusters of 8 blocks of 256), 1 host thread, "
      "build '%s': %.3f s\n",
      RL_SIM_BUILD_TYPE, seconds);
  CHECK(total == expected);
  const bool optimised =
      std::strcmp(RL_SIM_BUILD_TYPE, "Debug") != 0 && std::strcmp(RL_SIM_BUILD_TYPE, "") != 0;
  if (optimised)
    CHECK(seconds < 4.0);
  else
    WARN("time limit not asserted in build type '" << RL_SIM_BUILD_TYPE << "'");
}
