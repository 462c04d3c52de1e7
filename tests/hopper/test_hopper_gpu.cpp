// The Hopper features on the GPU (sm_90): the kernels that the simulator's tests run
// (tests/hopper/hopper_kernels.cuh), launched through rl::launch_ex, against the same references.
// Where there is no GPU, or one older than sm_90, it exits 77 (CTest: skipped).
#include <catch2/catch.hpp>

#include <cstdint>
#include <iostream>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/host/device.h"
#include "tests/catch_run.h"
#include "tests/hopper/hopper_gpu.h"
#include "tests/hopper/references.h"

using namespace hopper_test;

TEST_CASE("GPU: a cluster reduction through distributed shared memory, clusters of 2 to 16",
          "[gpu][hopper]") {
  const unsigned cluster = GENERATE(2u, 4u, 8u, 16u);
  constexpr unsigned block = 256;
  for (unsigned long long n : {1ull, 255ull, 256ull, 257ull, 100000ull, (1ull << 20) + 7}) {
    std::mt19937_64 rng(n + cluster);
    std::vector<std::int64_t> in(n);
    for (auto& x : in) x = static_cast<std::int64_t>(rng() % 2001) - 1000;
    INFO("cluster " << cluster << " n " << n);
    CHECK(gpu::cluster_sum(in, n, block, cluster) == cluster_sums(in, n, block, cluster));
    CHECK(gpu::cluster_sum(in, n, block, cluster, true) == cluster_sums(in, n, block, cluster));
  }
}

TEST_CASE("GPU: each block of a cluster has its own static __shared__ array", "[gpu][hopper]") {
  for (unsigned cluster : {2u, 4u}) {
    constexpr unsigned grid = 8, block = 64;
    const std::vector<int> got = gpu::static_shared_per_block(grid, block, cluster);
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned t = 0; t < block; ++t) {
        const unsigned other = b / cluster * cluster + ((b % cluster) ^ 1u);
        REQUIRE(got[b * block + t] == static_cast<int>(b * 1000 + t));
        REQUIRE(got[grid * block + b * block + t] == static_cast<int>(other * 1000 + t));
      }
  }
}

TEST_CASE("GPU: this_cluster() describes the cluster", "[gpu][hopper]") {
  constexpr unsigned grid = 8, block = 32;
  for (unsigned cluster : {1u, 4u}) {
    const std::vector<unsigned> o = gpu::cluster_queries(grid, block, cluster);
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned t = 0; t < block; ++t) {
        const unsigned* q = &o[6 * (b * block + t)];
        INFO("cluster " << cluster << " block " << b << " thread " << t);
        CHECK(q[0] == b % cluster);
        CHECK(q[1] == cluster);
        CHECK(q[2] == b % cluster * block + t);
        CHECK(q[3] == cluster * block);
        CHECK(q[4] == cluster);
        CHECK(q[5] == b % cluster);
      }
  }
  CHECK_THROWS_AS(gpu::launch_partial_cluster(), std::invalid_argument);
}

TEST_CASE("GPU: a dependent grid (programmatic dependent launch) gets the primary's output",
          "[gpu][hopper]") {
  constexpr unsigned block = 256;
  for (unsigned n : {256u, 1000u, 1u << 20}) {
    std::mt19937 rng(n);
    std::vector<float> in(n);
    for (auto& x : in) x = static_cast<float>(rng() % 64);
    const std::vector<float> expected = doubled_block_sums(in, block);
    CHECK(gpu::dependent_sums(in, block, 1) == expected);
    if (expected.size() % 2 == 0) CHECK(gpu::dependent_sums(in, block, 2) == expected);
  }
}

TEST_CASE("GPU: a bulk copy of 16 B to 64 KiB lands by the barrier's phase", "[gpu][hopper]") {
  constexpr unsigned grid = 3, block = 128;
  for (unsigned bytes : {16u, 1040u, 16384u, 49152u, 65536u}) {
    const unsigned count = bytes / 4;
    std::vector<float> in(std::size_t{grid} * count);
    std::iota(in.begin(), in.end(), 1.0f);
    for (int how = 0; how < 4; ++how) {
      if (how == 3 && count > 1024) continue;  // the static destination holds 1024 floats
      INFO(bytes << " bytes, way " << how);
      CHECK(gpu::bulk_load(in, grid, block, count, how) == in);
    }
  }
}

TEST_CASE("GPU: cooperative_groups::reduce and __reduce_*_sync", "[gpu][hopper]") {
  std::mt19937 rng(5);
  for (unsigned block : {32u, 96u, 256u}) {
    std::vector<int> in(block);
    for (auto& x : in) x = static_cast<int>(rng() % 2001) - 1000;
    std::vector<float> fin(in.begin(), in.end());
    for (unsigned size : {32u, 16u, 8u}) {
      CHECK(gpu::tile_reduce(in, size) == group_reductions(in, size, 0xffffffffu, 0));
      CHECK(gpu::tile_reduce(fin, size) == group_reductions(fin, size, 0xffffffffu, 0.0f));
    }
  }
  for (unsigned mask : {0xffffffffu, 0x0000ffffu, 0x80000001u, 0x5a5a5a5au}) {
    std::vector<int> in(64);
    for (auto& x : in) x = static_cast<int>(rng() % 2000001) - 1000000;
    in[3] = 2147483647;  // the sum wraps
    CHECK(gpu::warp_reduce(in, mask, -7) == group_reductions(in, 32, mask, -7));
    std::vector<unsigned> uin(64);
    for (auto& x : uin) x = static_cast<unsigned>(rng());
    CHECK(gpu::warp_reduce(uin, mask, 7u) == group_reductions(uin, 32, mask, 7u));
  }
}

int main(int argc, char** argv) {
  std::string why;
  if (!rl::make_gpu_device(&why)) {
    std::cout << "skipped: " << why << '\n';
    return 77;
  }
  if (const int cc = gpu::compute_capability(); cc < 90) {
    std::cout << "skipped: clusters and bulk copies need sm_90 (Hopper); this GPU is sm_" << cc
              << '\n';
    return 77;
  }
  return rl::test::run_catch(argc, argv);
}
