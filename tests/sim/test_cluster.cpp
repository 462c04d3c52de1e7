// Thread-block clusters on the simulator: the blocks of a cluster run together, cluster.sync() is a
// barrier of all their threads, and distributed shared memory (map_shared_rank) reads another
// block's shared memory; each misuse is a report naming kernel, block, thread and line.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <random>
#include <stdexcept>
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

std::atomic<int> line_a{0}, line_b{0};
std::string at(int line) { return "test_cluster.cpp:" + std::to_string(line); }

template <class Launch>
std::string report_of(Launch&& launch) {
  try {
    launch();
    rl::sim::synchronize();
  } catch (const rl::sim::KernelError& e) {
    return e.what();
  }
  return "";
}

rl::sim::LaunchAttributes cluster_of(unsigned blocks) {
  rl::sim::LaunchAttributes a;
  a.cluster_x = blocks;
  return a;
}

__global__ void rank_out_of_range(int* out) {
  __shared__ int s[32];
  cg::cluster_group c = cg::this_cluster();
  s[threadIdx.x] = 1;
  c.sync();
  if (threadIdx.x == 0) line_a = __LINE__, out[0] = *c.map_shared_rank(s, 4);
  c.sync();
}

// Rank 0 reads rank 1's shared memory, and rank 1 ends with no cluster.sync() after that read.
__global__ void reads_exited_block(int* out) {
  int* s = rl::dynamic_shared<int>();
  cg::cluster_group c = cg::this_cluster();
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  c.sync();
  if (c.block_rank() == 0)
    line_a = __LINE__, out[threadIdx.x] = c.map_shared_rank(s, 1)[threadIdx.x];
}

// Rank 1 reads rank 0's shared memory, and rank 0 ends with no cluster.sync() before that read.
__global__ void exits_under_reader(int* out) {
  int* s = rl::dynamic_shared<int>();
  cg::cluster_group c = cg::this_cluster();
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  c.sync();
  if (c.block_rank() == 1)
    line_a = __LINE__, out[threadIdx.x] = c.map_shared_rank(s, 0)[threadIdx.x];
}

// The same with the closing cluster.sync(): correct.
__global__ void reader_then_sync(int* out) {
  int* s = rl::dynamic_shared<int>();
  cg::cluster_group c = cg::this_cluster();
  s[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  c.sync();
  if (c.block_rank() == 1) out[threadIdx.x] = c.map_shared_rank(s, 0)[threadIdx.x];
  c.sync();
}

// Block 1 ends before the cluster barrier that the other blocks wait at.
__global__ void block_skips_cluster_sync(int* out) {
  cg::cluster_group c = cg::this_cluster();
  if (blockIdx.x % c.num_blocks() == 1) return;
  line_a = __LINE__, c.sync();
  out[blockIdx.x] = 1;
}

// Half of block 1 waits at __syncthreads (which the other half never reaches), the rest of the
// cluster at cluster.sync(): no barrier can complete.
__global__ void waits_in_different_barriers(int* out) {
  cg::cluster_group c = cg::this_cluster();
  if (c.block_rank() == 1 && threadIdx.x < 32) {
    line_b = __LINE__, __syncthreads();
  } else {
    line_a = __LINE__, c.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// The blocks of a cluster reach cluster.sync() at different call sites.
__global__ void different_cluster_syncs(int* out) {
  cg::cluster_group c = cg::this_cluster();
  if (c.block_rank() == 0) {
    line_a = __LINE__, c.sync();
  } else {
    line_b = __LINE__, c.sync();
  }
  out[blockIdx.x] = 1;
}

// The split cluster barrier misused: a wait without an arrival, two arrivals without a wait, and a
// block that ends without arriving.
__global__ void waits_without_arriving(int* out) {
  cg::cluster_group c = cg::this_cluster();
  line_a = __LINE__, c.barrier_wait();
  out[blockIdx.x] = 1;
}
__global__ void arrives_twice(int* out) {
  cg::cluster_group c = cg::this_cluster();
  (void)c.barrier_arrive();
  line_a = __LINE__, (void)c.barrier_arrive();
  out[blockIdx.x] = 1;
}
__global__ void block_skips_split_barrier(int* out) {
  cg::cluster_group c = cg::this_cluster();
  if (c.block_rank() == 1) return;
  cg::cluster_group::arrival_token token = c.barrier_arrive();
  line_a = __LINE__, c.barrier_wait(std::move(token));
  out[blockIdx.x] = 1;
}

// Block 1 reads block 0's shared memory (through a checked view, as the lessons' Shared<Trace>),
// with or without a cluster.sync() after block 0 wrote it.
template <bool Sync>
__global__ void remote_read(float* out) {
  rl::sim::SharedView<float> s = rl::dynamic_shared<float>();
  cg::cluster_group c = cg::this_cluster();
  if (c.block_rank() == 0) line_a = __LINE__, s[threadIdx.x] = 1.0f + threadIdx.x;
  if constexpr (Sync) c.sync();
  if (c.block_rank() == 1) {
    rl::sim::SharedView<float> other = c.map_shared_rank(s, 0);
    line_b = __LINE__, out[threadIdx.x] = other[threadIdx.x];
  }
  c.sync();
}

rl::sim::Options checking(unsigned host_threads = 1) {
  rl::sim::Options o = simtest::make_options(rl::sim::Schedule::lane_order, 1, host_threads);
  o.racecheck = true;
  return o;
}

}  // namespace

TEST_CASE("a cluster reduction through distributed shared memory matches the reference",
          "[cluster]") {
  const unsigned cluster = GENERATE(2u, 4u, 8u, 16u);
  constexpr unsigned block = 64;
  for (unsigned long long n : {0ull, 1ull, 63ull, 64ull, 65ull, 1000ull, 4097ull, 20000ull}) {
    std::mt19937_64 rng(n + cluster);
    std::vector<std::int64_t> in(std::max(1ull, n));
    for (auto& x : in) x = static_cast<std::int64_t>(rng() % 2001) - 1000;
    const std::vector<std::int64_t> expected = cluster_sums(in, n, block, cluster);
    const auto clusters = static_cast<unsigned>(expected.size());
    for (const auto& opts : {simtest::make_options(rl::sim::Schedule::lane_order, 1, 1),
                             simtest::make_options(rl::sim::Schedule::shuffled, 7, 3)}) {
      simtest::ScopedOptions scoped(opts);
      INFO("cluster " << cluster << " n " << n << " " << simtest::describe(opts));
      std::vector<std::int64_t> out(clusters, -1);
      rl::sim::launch_ex("cluster_sum", cluster_sum, dim3(clusters * cluster), dim3(block),
                         block * sizeof(std::int64_t), cluster_of(cluster), in.data(), out.data(),
                         n);
      rl::sim::synchronize();
      CHECK(out == expected);
      std::fill(out.begin(), out.end(), -1);
      rl::sim::launch_ex("cluster_sum_split", cluster_sum_split, dim3(clusters * cluster),
                         dim3(block), block * sizeof(std::int64_t), cluster_of(cluster), in.data(),
                         out.data(), n);
      rl::sim::synchronize();
      CHECK(out == expected);
    }
  }
}

TEST_CASE("the largest clusters (16 blocks of 1024 threads) run, however many host threads",
          "[cluster]") {
  // 16384 threads alive at once per cluster: the simulator runs no more such clusters at once than
  // the process's memory mappings allow (each fiber stack is two)
  constexpr unsigned block = 1024, cluster = 16, clusters = 3;
  const unsigned long long n = std::uint64_t{block} * cluster * clusters - 5;
  std::vector<std::int64_t> in(n);
  for (unsigned long long i = 0; i < n; ++i) in[i] = static_cast<std::int64_t>(i % 1000);
  const std::vector<std::int64_t> expected = cluster_sums(in, n, block, cluster);
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 4));
  std::vector<std::int64_t> out(clusters, -1);
  rl::sim::launch_ex("cluster_sum", cluster_sum, dim3(clusters * cluster), dim3(block),
                     block * sizeof(std::int64_t), cluster_of(cluster), in.data(), out.data(), n);
  rl::sim::synchronize();
  CHECK(out == expected);
}

TEST_CASE("each block of a cluster has its own static __shared__ array", "[cluster]") {
  const unsigned cluster = GENERATE(2u, 4u);
  constexpr unsigned block = 64, grid = 8;
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 2));
  std::vector<int> own(grid * block, -1), neighbour(grid * block, -1);
  rl::sim::launch_ex("static_shared_per_block", static_shared_per_block, dim3(grid), dim3(block), 0,
                     cluster_of(cluster), own.data(), neighbour.data());
  rl::sim::synchronize();
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t) {
      const unsigned other = b / cluster * cluster + ((b % cluster) ^ 1u);
      REQUIRE(own[b * block + t] == static_cast<int>(b * 1000 + t));
      REQUIRE(neighbour[b * block + t] == static_cast<int>(other * 1000 + t));
    }
}

TEST_CASE("this_cluster() describes the cluster; a launch without clusters is a cluster of one",
          "[cluster]") {
  constexpr unsigned block = 32, grid = 8;
  for (unsigned cluster : {1u, 4u}) {
    std::vector<unsigned> out(6 * grid * block);
    if (cluster == 1)
      rl::sim::launch("cluster_queries", cluster_queries, dim3(grid), dim3(block), 0, out.data());
    else
      rl::sim::launch_ex("cluster_queries", cluster_queries, dim3(grid), dim3(block), 0,
                         cluster_of(cluster), out.data());
    rl::sim::synchronize();
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned t = 0; t < block; ++t) {
        const unsigned* o = &out[6 * (b * block + t)];
        INFO("cluster " << cluster << " block " << b << " thread " << t);
        CHECK(o[0] == b % cluster);
        CHECK(o[1] == cluster);
        CHECK(o[2] == b % cluster * block + t);
        CHECK(o[3] == cluster * block);
        CHECK(o[4] == cluster);
        CHECK(o[5] == b % cluster);
      }
  }
}

TEST_CASE("launch_ex runs the grid at the next launch or synchronize(), not before", "[cluster]") {
  std::vector<std::int64_t> in(128, 1), out(1, -1);
  rl::sim::launch_ex("cluster_sum", cluster_sum, dim3(2), dim3(64), 64 * sizeof(std::int64_t),
                     cluster_of(2), in.data(), out.data(), 128ull);
  CHECK(out[0] == -1);  // not run yet, as a GPU may not have run it yet
  rl::sim::synchronize();
  CHECK(out[0] == 128);
}

TEST_CASE("impossible cluster launches are refused before anything runs", "[cluster]") {
  std::vector<std::int64_t> in(64), out(64);
  const auto launch = [&](unsigned grid, unsigned cluster) {
    rl::sim::launch_ex("cluster_sum", cluster_sum, dim3(grid), dim3(64), 64 * sizeof(std::int64_t),
                       cluster_of(cluster), in.data(), out.data(), 64ull);
  };
  CHECK_THROWS_WITH(launch(6, 4),
                    Contains("sim: launch of kernel 'cluster_sum'") &&
                        Contains("grid.x = 6 is not a multiple of the cluster size 4"));
  CHECK_THROWS_AS(launch(32, 32), std::invalid_argument);
  CHECK_THROWS_AS(launch(4, 0), std::invalid_argument);
}

TEST_CASE("map_shared_rank with a rank outside the cluster is reported", "[cluster][errors]") {
  std::vector<int> out(1);
  const std::string msg = report_of([&] {
    rl::sim::launch_ex("rank_out_of_range", rank_out_of_range, dim3(8), dim3(32), 0, cluster_of(4),
                       out.data());
  });
  CHECK_THAT(msg,
             Contains("sim: kernel 'rank_out_of_range' block (0,0,0) thread (0,0,0): "
                      "map_shared_rank at " +
                      at(line_a) + ": rank 4 is not in the cluster of 4 blocks (ranks 0 to 3)"));
}

TEST_CASE("a block that ends while another may still read its shared memory is reported, both ways",
          "[cluster][errors]") {
  for (unsigned host_threads : {1u, 3u}) {
    simtest::ScopedOptions scoped(
        simtest::make_options(rl::sim::Schedule::lane_order, 1, host_threads));
    std::vector<int> out(64);
    // rank 0 reads rank 1, which ends without a cluster.sync() after that read
    std::string msg = report_of([&] {
      rl::sim::launch_ex("reads_exited_block", reads_exited_block, dim3(4), dim3(64),
                         64 * sizeof(int), cluster_of(2), out.data());
    });
    CHECK_THAT(msg, Contains("sim: kernel 'reads_exited_block' block (0,0,0) thread (0,0,0): "
                             "distributed shared memory: block (1,0,0) of the cluster exited while "
                             "this thread could still access its shared memory (map_shared_rank "
                             "at " +
                             at(line_a) + ") with no cluster.sync() between"));
    // rank 1 reads rank 0, which (after the cluster.sync(), rank 0 runs first) has ended
    msg = report_of([&] {
      rl::sim::launch_ex("exits_under_reader", exits_under_reader, dim3(4), dim3(64),
                         64 * sizeof(int), cluster_of(2), out.data());
    });
    CHECK_THAT(msg, Contains("sim: kernel 'exits_under_reader' block (1,0,0) thread (0,0,0): "
                             "map_shared_rank at " +
                             at(line_a) +
                             ": block (0,0,0) (rank 0) of the cluster has exited, and its shared "
                             "memory with it"));
  }
  std::vector<int> out(64, -1);
  rl::sim::launch_ex("reader_then_sync", reader_then_sync, dim3(2), dim3(64), 64 * sizeof(int),
                     cluster_of(2), out.data());
  rl::sim::synchronize();
  for (int t = 0; t < 64; ++t) CHECK(out[t] == 3 * t);
}

TEST_CASE("a cluster barrier that a block never reaches is reported, never a hang",
          "[cluster][errors]") {
  std::vector<int> out(8 * 64);
  std::string msg = report_of([&] {
    rl::sim::launch_ex("block_skips_cluster_sync", block_skips_cluster_sync, dim3(8), dim3(64), 0,
                       cluster_of(4), out.data());
  });
  CHECK_THAT(
      msg, Contains("sim: kernel 'block_skips_cluster_sync' block (0,0,0) thread (0,0,0): "
                    "cluster.sync() at " +
                    at(line_a) + " is not reached by threads 0-63 of block (1,0,0), which exited"));
  msg = report_of([&] {
    rl::sim::launch_ex("waits_in_different_barriers", waits_in_different_barriers, dim3(2),
                       dim3(64), 0, cluster_of(2), out.data());
  });
  CHECK_THAT(msg,
             Contains("sim: kernel 'waits_in_different_barriers' block (0,0,0) thread (0,0,0): "
                      "deadlock in the cluster of block (0,0,0) to block (1,0,0): block "
                      "(0,0,0): threads 0-63 wait at cluster.sync() at " +
                      at(line_a) + "; block (1,0,0): threads 0-31 wait at __syncthreads at " +
                      at(line_b) + ", threads 32-63 wait at cluster.sync() at " + at(line_a)));
  msg = report_of([&] {
    rl::sim::launch_ex("different_cluster_syncs", different_cluster_syncs, dim3(4), dim3(32), 0,
                       cluster_of(2), out.data());
  });
  CHECK_THAT(msg, Contains("threads of the cluster wait at different cluster.sync() calls: block "
                           "(0,0,0) threads 0-31 at " +
                           at(line_a) + "; block (1,0,0) threads 0-31 at " + at(line_b)));
}

TEST_CASE("the split cluster barrier's misuse is reported", "[cluster][errors]") {
  std::vector<int> out(4);
  std::string msg = report_of([&] {
    rl::sim::launch_ex("waits_without_arriving", waits_without_arriving, dim3(2), dim3(32), 0,
                       cluster_of(2), out.data());
  });
  CHECK_THAT(msg, Contains("sim: kernel 'waits_without_arriving' block (0,0,0) thread (0,0,0): the "
                           "cluster's barrier_wait() at " +
                           at(line_a) +
                           ": this thread has not arrived at the cluster barrier (barrier_arrive() "
                           "first)"));
  msg = report_of([&] {
    rl::sim::launch_ex("arrives_twice", arrives_twice, dim3(2), dim3(32), 0, cluster_of(2),
                       out.data());
  });
  CHECK_THAT(msg,
             Contains("sim: kernel 'arrives_twice' block (0,0,0) thread (0,0,0): the cluster's "
                      "barrier_arrive() at " +
                      at(line_a) +
                      ": this thread has arrived at the cluster barrier already "
                      "(barrier_wait() first)"));
  msg = report_of([&] {
    rl::sim::launch_ex("block_skips_split_barrier", block_skips_split_barrier, dim3(4), dim3(32), 0,
                       cluster_of(4), out.data());
  });
  CHECK_THAT(
      msg, Contains("sim: kernel 'block_skips_split_barrier' block (0,0,0) thread (0,0,0): "
                    "the cluster barrier (barrier_wait()) at " +
                    at(line_a) + " is not reached by threads 0-31 of block (1,0,0), which exited"));
}

TEST_CASE("with race checking, blocks reading each other's shared memory need a cluster.sync()",
          "[cluster][racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(32, -1.0f);
  const std::string msg = report_of([&] {
    rl::sim::launch_ex("remote_read<false>", remote_read<false>, dim3(2), dim3(32),
                       32 * sizeof(float), cluster_of(2), out.data());
  });
  CHECK_THAT(msg, Contains("sim: kernel 'remote_read<false>' block (1,0,0) thread (0,0,0): "
                           "racecheck: read-after-write race on shared[0] of block (0,0,0): block "
                           "(0,0,0) thread 0 wrote it at " +
                           at(line_a) + ", then block (1,0,0) thread 0 read it at " + at(line_b) +
                           ", with no cluster.sync() between them"));
  CHECK(report_of([&] {
          rl::sim::launch_ex("remote_read<true>", remote_read<true>, dim3(2), dim3(32),
                             32 * sizeof(float), cluster_of(2), out.data());
        }) == "");
  for (int t = 0; t < 32; ++t) CHECK(out[t] == 1.0f + t);
}
