// The dropped-block plans of dropped_block.h: compiled by nvcc into the GPU suites and by g++
// (through dropped_block_sim.cpp) into the simulator suite, as a lesson's plan.cu is.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/block_dispatch.h"
#include "common/grid_size.h"
#include "common/launch.h"
#include "common/occupancy.h"
#include "lessons/03_sequential_addressing/sequential_addressing.cuh"
#include "lessons/07_multiple_elements_per_thread/multiple_elements_per_thread.cuh"
#include "tests/lessons/dropped_block.h"

// Lessons 12 and 13's headers define their ticket counters, __device__ variables, which the
// lessons' own plans (linked into the same programs) define too. Included in an inline namespace of this file's own,
// every name it defines here (the counter, the kernels) is a symbol apart from lesson 12's.
#undef RL_BACKEND_NS
#if defined(__CUDACC__)
#define RL_BACKEND_NS backend_gpu_dropped_block
#else
#define RL_BACKEND_NS backend_sim_dropped_block
#endif
#include "lessons/12_single_pass/single_pass.cuh"
#include "lessons/14_clusters_and_bulk_copies/clusters_and_bulk_copies.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Lesson 03: each pass's blocks turn 256 values into one partial, until one block is left.
void reduce_03(const ReduceCall& c) {
  const unsigned block = c.block;
  float* regions[2] = {static_cast<float*>(c.scratch),
                       static_cast<float*>(c.scratch) + ceil_div(c.n, block)};
  const float* from = c.in;
  std::uint64_t count = c.n;
  for (int k = 0;; ++k) {
    const std::uint64_t blocks = count == 0 ? 1 : ceil_div(count, block);
    float* to = blocks == 1 ? c.out : regions[k % 2];
    launch("sequential_addressing", sequential_addressing<NoTrace>,
           dim3(static_cast<unsigned>(blocks)), dim3(block), block * sizeof(float), c.stream, from,
           to, count);
    if (blocks == 1) return;
    from = to;
    count = k == 0 ? blocks - 1 : blocks;  // THE MISTAKE: the first pass's last partial is left out
  }
}

// Lesson 07: a persistent grid leaves one partial per block, then one block sums them.
constexpr unsigned items_07 = 2;  // lesson 07's plan.cu, and its grid
unsigned grid_07(std::uint64_t n, unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return persistent_grid(n, block, items_07,
                           kernel_resources(multiple_elements_per_thread<Block, NoTrace>, Block,
                                            Block * sizeof(float), s),
                           s);
  });
}
void reduce_07(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const Passes passes = persistent_passes(c, grid_07(c.n, c.block, c.shape));
    for (unsigned k = 0; k < passes.count; ++k) {
      Pass pass = passes.pass[k];
      if (k == 1) pass.count -= 1;  // THE MISTAKE: the last block's partial is left out
      launch("multiple_elements_per_thread", multiple_elements_per_thread<Block, NoTrace>,
             dim3(pass.blocks), dim3(Block), Block * sizeof(float), c.stream, pass.in, pass.out,
             pass.count);
    }
  });
}

// Lesson 12's single_pass, its finish one partial short.
template <unsigned Block>
__global__ void __launch_bounds__(Block)
    single_pass_dropping_one(In<NoTrace> in, Out<NoTrace> out, std::uint64_t n,
                             Out<NoTrace> partials) {
  const float sum = block_sum<Block, NoTrace>(
      thread_sum_vectorized<Block, 4, QuadOrder::interleaved, NoTrace>(in, n));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();
    is_last = atomicInc(&blocks_finished, gridDim.x - 1) == gridDim.x - 1;
    if (is_last) __threadfence();
  }
  __syncthreads();
  if (!is_last) return;
  float total = 0.0f;
  // THE MISTAKE: b < gridDim.x
  for (unsigned b = threadIdx.x; b + 1 < gridDim.x; b += Block) total += __ldcg(partials + b);
  total = block_sum<Block, NoTrace>(total);
  if (threadIdx.x == 0) out[0] = total;
}

constexpr unsigned items_12 = 16;  // lesson 12's plan.cu, and its grid
unsigned grid_12(std::uint64_t n, unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return persistent_grid(n, block, items_12,
                           kernel_resources(single_pass_dropping_one<Block>, Block, 0, s), s);
  });
}
void reduce_12(const ReduceCall& c) {
  const unsigned grid = grid_12(c.n, c.block, c.shape);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("single_pass", single_pass_dropping_one<Block>, dim3(grid), dim3(Block), 0, c.stream,
           c.in, c.out, c.n, static_cast<float*>(c.scratch));
  });
}

// Lesson 14's cluster_single_pass, its cluster's first block one rank short: the last block of
// every cluster is never added.
template <unsigned Block>
__global__ void __launch_bounds__(Block)
    cluster_single_pass_dropping_one(In<NoTrace> in, Out<NoTrace> out, std::uint64_t n,
                                     Out<NoTrace> partials) {
  const cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  const float sum = block_sum<Block, NoTrace>(vectorized_sum<Block, 4, NoTrace>(in, n));
  const unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  float* const slots = dynamic_shared<float>();
  if (threadIdx.x == 0) cluster.map_shared_rank(slots, 0)[rank] = sum;
  cluster.sync();
  if (rank != 0) return;
  float cluster_sum = 0.0f;
  if (threadIdx.x < 32) {
    cluster_sum = threadIdx.x + 1 < size ? slots[threadIdx.x] : 0.0f;  // THE MISTAKE: < size
    cluster_sum = warp_sum<NoTrace>(cluster_sum);
  }
  publish_and_finish<Block, NoTrace>(&cluster_tickets, cluster_sum, blockIdx.x / size,
                                     gridDim.x / size, partials, out,
                                     [](float v) { return block_sum<Block, NoTrace>(v); });
}

constexpr unsigned cluster_14 = 4;  // lesson 14's cluster4 variant: clusters of 4
unsigned grid_14(const ReduceCall& c) {
  return with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const unsigned wanted =
        static_cast<unsigned>(ceil_div(std::max<std::uint64_t>(c.n, 1), Block * items_12));
    const unsigned fit = resident_clusters(cluster_single_pass_dropping_one<Block>, Block,
                                           16 * sizeof(float), cluster_14, c.shape);
    return cluster_14 * std::min(static_cast<unsigned>(ceil_div(wanted, cluster_14)), fit);
  });
}
void reduce_14(const ReduceCall& c) {
  const unsigned grid = grid_14(c);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    launch_ex("cluster_single_pass", cluster_single_pass_dropping_one<Block>, dim3(grid),
              dim3(Block), 16 * sizeof(float), c.stream, LaunchAttributes{.cluster_x = cluster_14},
              c.in, c.out, c.n, static_cast<float*>(c.scratch));
  });
}

}  // namespace
RL_NAMESPACE_END

namespace rl::test {

template <>
Plan dropped_block_plan<this_backend>(int lesson) {
  Plan p{.lesson = lesson, .variant = "dropped_block", .backend = this_backend};
  switch (lesson) {
    case 3:
      p.slug = "sequential_addressing";
      p.title = "Sequential addressing, one block's partial dropped";
      p.reduce = reduce_03;
      p.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) {
        return tree_scratch_bytes(n, block);
      };
      p.depth = [](std::uint64_t n, unsigned block, const DeviceShape&) {
        return tree_depth(n, block);
      };
      return p;
    case 7:
      p.slug = "multiple_elements_per_thread";
      p.title = "Many elements per thread, one block's partial dropped";
      p.reduce = reduce_07;
      p.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape& s) {
        return grid_07(n, block, s) * sizeof(float);
      };
      p.depth = [](std::uint64_t n, unsigned block, const DeviceShape& s) {
        return persistent_depth(n, block, grid_07(n, block, s), block);
      };
      return p;
    case 12:
      p.slug = "single_pass";
      p.title = "Single pass, the last block's finish one partial short";
      p.reduce = reduce_12;
      p.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape& s) {
        return grid_12(n, block, s) * sizeof(float);
      };
      p.depth = [](std::uint64_t n, unsigned block, const DeviceShape& s) {  // lesson 12's plan.cu
        const std::uint64_t g = grid_12(n, block, s);
        return ceil_div(n, 4 * g * block) + 4 + 2 * summation_depth(block, 0) + ceil_div(g, block);
      };
      return p;
    case 14:
      p.slug = "clusters_and_bulk_copies";
      p.title = "Clusters of 4, each cluster's last block never added";
      p.reduce = reduce_14;
      p.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) {
        return ceil_div(std::max<std::uint64_t>(n, 1), block * items_12) * sizeof(float);
      };
      p.depth = [](std::uint64_t n, unsigned block, const DeviceShape& s) {  // its plan.cu
        const std::uint64_t g = grid_14({.n = n, .block = block, .shape = s});
        return ceil_div(n, 4 * g * block) + 4 + 2 * summation_depth(block, 0) +
               ceil_div(g / cluster_14, block) + summation_depth(cluster_14, 0);
      };
      return p;
  }
  throw std::invalid_argument("dropped_block_plan: no dropped-block plan for lesson " +
                              std::to_string(lesson));
}

}  // namespace rl::test
