// Lesson 14's launch plans: lesson 12's single pass with one more Hopper feature at a time, each a
// plan of its own: the lesson's own runs in clusters of 2 blocks; the variants in clusters of 4 (with
// lesson 13's dependent launch too: cluster4_pdl), 8 and 16, with bulk copies, and with the
// libraries' block reduces. main.cpp -> rl::lesson_main<14> -> lesson_plans<14, backend>() at the
// end of this file, which CMake compiles twice: by nvcc for the GPU and by g++ for the simulator
// (where CUB's variants have no version).
#include <algorithm>

#include "common/block_dispatch.h"
#include "common/occupancy.h"
#include "common/plan_entry.h"
#include "lessons/14_clusters_and_bulk_copies/clusters_and_bulk_copies.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 16;  // lesson 12's: each thread's share at least 4 float4s
constexpr unsigned largest_cluster = 16;
// A cluster's first block receives one float from each of its blocks.
constexpr std::size_t cluster_shared_bytes = largest_cluster * sizeof(float);

// Whole clusters, as many as the GPU holds at once (the occupancy calculator's count), no more
// than the input can feed.
template <unsigned Block, unsigned Cluster, class Trace>
unsigned cluster_grid(std::uint64_t n, const DeviceShape& shape) {
  const auto kernel = cluster_single_pass<Block, Trace>;
  if constexpr (Cluster > 8) allow_nonportable_clusters(kernel);  // 16: an H100 opts in
  const auto wanted =
      static_cast<unsigned>(ceil_div(useful_blocks(n, Block * items_per_thread), Cluster));
  return Cluster *
         std::min(wanted, resident_clusters(kernel, Block, cluster_shared_bytes, Cluster, shape));
}

// Idea 1: clusters of `Cluster` blocks, the launch overlapping the one before it when Pdl (lesson
// 13). Through cudaLaunchKernelEx, with its attributes:
//   cudaLaunchAttributeClusterDimension = {Cluster, 1, 1}
//   cudaLaunchAttributeProgrammaticStreamSerialization = Pdl
//   cluster_single_pass<Block><<<grid, Block, 16 * sizeof(float), stream>>>(in, out, n, partials);
template <unsigned Cluster, bool Pdl, class Trace>
void reduce_in_clusters(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const unsigned grid = cluster_grid<Block, Cluster, Trace>(c.n, c.shape);
    name_buffer(c.scratch, grid / Cluster * sizeof(float), "partials");  // for race reports
    launch_ex("cluster_single_pass", cluster_single_pass<Block, Trace>, dim3(grid), dim3(Block),
              cluster_shared_bytes, c.stream,
              LaunchAttributes{.cluster_x = Cluster, .programmatic_dependency = Pdl}, c.in, c.out,
              c.n, static_cast<float*>(c.scratch));
  });
}

// A single pass whose kernel differs from lesson 12's in its loads or its block reduce: as many
// blocks as the GPU holds at once (their shared memory may decide it), each fed `per_block` floats.
template <unsigned Block, class... Params>
unsigned single_pass_grid(void (*kernel)(Params...), std::size_t shared_bytes,
                          std::uint64_t per_block, const ReduceCall& c) {
  return std::min(useful_blocks(c.n, per_block),
                  resident_blocks(kernel, Block, shared_bytes, c.shape));
}

// Idea 2: the Tensor Memory Accelerator loads 8 KiB stages into shared memory; a block gets at least
// one.
//   bulk_copy_single_pass<Block><<<grid, Block, 3 * 8 KiB, stream>>>(in, out, n, partials);
void reduce_with_bulk_copies(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = bulk_copy_single_pass<Block>;
    const unsigned grid =
        single_pass_grid<Block>(kernel, bulk_shared_bytes, 4 * bulk_stage_quads, c);
    launch("bulk_copy_single_pass", kernel, dim3(grid), dim3(Block), bulk_shared_bytes, c.stream,
           c.in, c.out, c.n, static_cast<float*>(c.scratch));
  });
}

// Idea 3: the block reduce from cooperative groups.
//   cg_single_pass<Block><<<grid, Block, 0, stream>>>(in, out, n, partials);
void reduce_with_cg(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = cg_single_pass<Block>;
    const unsigned grid = single_pass_grid<Block>(kernel, 0, Block * items_per_thread, c);
    launch("cg_single_pass", kernel, dim3(grid), dim3(Block), 0, c.stream, c.in, c.out, c.n,
           static_cast<float*>(c.scratch));
  });
}

#if defined(__CUDACC__)
// Idea 3: the block reduce from CUB, in either of its algorithms (GPU only).
//   cub_single_pass<Block, Algorithm><<<grid, Block, 0, stream>>>(in, out, n, partials);
template <cub::BlockReduceAlgorithm Algorithm>
void reduce_with_cub(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = cub_single_pass<Block, Algorithm>;
    const unsigned grid = single_pass_grid<Block>(kernel, 0, Block * items_per_thread, c);
    launch("cub_single_pass", kernel, dim3(grid), dim3(Block), 0, c.stream, c.in, c.out, c.n,
           static_cast<float*>(c.scratch));
  });
}
#endif

// Every plan's partials fit in this many floats: one per block, and no GPU holds more than 32
// blocks an SM.
std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t most = std::min<std::uint64_t>(useful_blocks(n, 4 * bulk_stage_quads),
                                                     std::uint64_t{shape.sm_count} * 32);
  return std::max<std::uint64_t>(most, useful_blocks(n, block * items_per_thread)) * sizeof(float);
}

// A thread's run over a grid of g blocks (quads, each two levels, head and tail), its block's
// tree, and the finish's run and tree over `count` partials (lesson 12's plan.cu).
std::uint64_t single_pass_depth(std::uint64_t n, unsigned block, std::uint64_t g,
                                std::uint64_t count, std::uint64_t block_tree) {
  return ceil_div(n, 4 * g * block) + 4 + 2 * block_tree + ceil_div(count, block);
}

template <unsigned Cluster>
std::uint64_t cluster_depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const std::uint64_t g = cluster_grid<Block, Cluster, NoTrace>(n, shape);
    return single_pass_depth(n, block, g, g / Cluster, summation_depth(block, 0)) +
           summation_depth(Cluster, 0);  // the cluster's warp adds its blocks' sums
  });
}

std::uint64_t bulk_depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const std::uint64_t g =
        std::min(useful_blocks(n, 4 * bulk_stage_quads),
                 resident_blocks(bulk_copy_single_pass<Block>, Block, bulk_shared_bytes, shape));
    // a thread adds at most one quad in every min(Block, stage) of each grid's worth of quads
    const std::uint64_t readers = std::min(block, bulk_stage_quads);
    return single_pass_depth(n, static_cast<unsigned>(readers), g, g, 0) + 2 +
           2 * summation_depth(block, 0);
  });
}

// Lesson 12's depth with another block reduce: cg::reduce is a tree, and so are CUB's warp
// reductions; CUB's raking adds block / 32 values in a row first. Kernel: the variant's, for its grid.
template <template <unsigned> class Kernel>
std::uint64_t block_reduce_depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const std::uint64_t g = std::min(useful_blocks(n, Block * items_per_thread),
                                     resident_blocks(Kernel<Block>::kernel, Block, 0, shape));
    return single_pass_depth(n, block, g, g, summation_depth(block, block / 32));
  });
}
template <unsigned Block>
struct CgKernel {
  static constexpr auto kernel = cg_single_pass<Block>;
};
#if defined(__CUDACC__)
template <cub::BlockReduceAlgorithm Algorithm>
struct CubKernel {
  template <unsigned Block>
  struct Of {
    static constexpr auto kernel = cub_single_pass<Block, Algorithm>;
  };
};
#endif

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<14, rl::this_backend>() {
  constexpr std::string_view slug = "clusters_and_bulk_copies",
                             title = "Hopper: clusters, bulk copies, the libraries' block reduce";
  // One plan: a variant name, its two reduce functions (the traced one null where the kernel
  // records nothing), its block, its depth.
  const auto plan = [&](std::string_view variant, ReduceFunction reduce, ReduceFunction traced,
                        unsigned block, auto depth) {
    Plan p = lesson_plan(14, slug, title, reduce, traced);
    p.variant = variant;
    p.preferred_block = block;
    p.scratch_bytes = scratch_bytes;
    p.depth = depth;
    return p;
  };
  Plans plans{
      // The lesson's own: clusters of 2 blocks.
      plan("", reduce_in_clusters<2, false, NoTrace>, reduce_in_clusters<2, false, RecordTrace>,
           1024, cluster_depth<2>),
      plan("cluster4", reduce_in_clusters<4, false, NoTrace>,
           reduce_in_clusters<4, false, RecordTrace>, 1024, cluster_depth<4>),
      // Both: clusters of 4, each call overlapping the one before.
      plan("cluster4_pdl", reduce_in_clusters<4, true, NoTrace>,
           reduce_in_clusters<4, true, RecordTrace>, 1024, cluster_depth<4>),
      plan("cluster8", reduce_in_clusters<8, false, NoTrace>,
           reduce_in_clusters<8, false, RecordTrace>, 1024, cluster_depth<8>),
      plan("cluster16", reduce_in_clusters<16, false, NoTrace>,
           reduce_in_clusters<16, false, RecordTrace>, 1024, cluster_depth<16>),
      plan("bulk_copy", reduce_with_bulk_copies, nullptr, 256, bulk_depth),
      plan("cg_reduce", reduce_with_cg, nullptr, 1024, block_reduce_depth<CgKernel>),
  };
#if defined(__CUDACC__)
  using Raking = CubKernel<cub::BLOCK_REDUCE_RAKING>;
  using WarpReductions = CubKernel<cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  plans.push_back(plan("cub_raking", reduce_with_cub<cub::BLOCK_REDUCE_RAKING>, nullptr, 1024,
                       block_reduce_depth<Raking::Of>));
  plans.push_back(plan("cub_warp_reductions", reduce_with_cub<cub::BLOCK_REDUCE_WARP_REDUCTIONS>,
                       nullptr, 1024, block_reduce_depth<WarpReductions::Of>));
#endif
  // cluster4_pdl is compared with the ceiling launched with the dependent launch too.
  for (Plan& p : plans) p.way.programmatic = p.variant == "cluster4_pdl";
  // The exercise's idea, checked on the own plan: a cluster's blocks hand their sums to its first
  // in distributed shared memory (each second block maps its first's).
  plans.front().idea.cluster_shares = true;
  return plans;
}
