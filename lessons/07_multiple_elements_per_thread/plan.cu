// Lesson 07's launch plan: a grid sized to the GPU, then one block over its partials.
// main.cpp -> rl::lesson_main<7> -> lesson_plans<7, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include <array>
#include <string_view>
#include <utility>

#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/07_multiple_elements_per_thread/multiple_elements_per_thread.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// What one SM holds of the kernel at once (common/occupancy.h: the occupancy API on the GPU): the
// persistent grid is that many blocks on every SM.
KernelResources resources(unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return kernel_resources(multiple_elements_per_thread<Block, NoTrace>, Block,
                            Block * sizeof(float), s);
  });
}

// A persistent grid (as many blocks as fit on the GPU at once) leaves one partial per block; the
// same kernel with one block then sums the partials (persistent_passes, common/grid_size.h):
//   multiple_elements_per_thread<Block><<<grid, Block, smem, stream>>>(in, partials, n);
//   multiple_elements_per_thread<Block><<<1, Block, smem, stream>>>(partials, out, grid);
//   where smem = Block * sizeof(float)
// The `chunked` variant: the same grid and passes; each block sums a contiguous run instead.
template <class Trace, bool Chunked = false>
void reduce(const ReduceCall& c) {
  const unsigned grid =
      persistent_grid(c.n, c.block, items_per_thread, resources(c.block, c.shape), c.shape);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : persistent_passes(c, grid))
      launch("multiple_elements_per_thread", multiple_elements_per_thread<Block, Trace, Chunked>,
             dim3(pass.blocks), dim3(Block), Block * sizeof(float), c.stream, pass.in, pass.out,
             pass.count);
  });
}

// The sweep behind the README's table of elements per thread (`reducelab sweep`): the same kernel
// with PerThread inputs a thread instead of the grid above. Each pass's grid is
// ceil(count / (PerThread * Block)), and passes repeat over the partials until one block is left:
//   multiple_elements_per_thread<Block><<<ceil(n / (PerThread * Block)), Block, smem>>>(in, ...);
//   ... until one block writes out (tree_passes, common/grid_size.h)
template <unsigned PerThread, class Trace>
void reduce_per_thread(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : tree_passes(c, std::uint64_t{PerThread} * Block))
      launch("multiple_elements_per_thread", multiple_elements_per_thread<Block, Trace>,
             dim3(pass.blocks), dim3(Block), Block * sizeof(float), c.stream, pass.in, pass.out,
             pass.count);
  });
}

// Each pass: a chain of PerThread additions in a thread, then the block's tree.
template <unsigned PerThread>
std::uint64_t per_thread_depth(std::uint64_t n, unsigned block, const DeviceShape&) {
  std::uint64_t depth = 0;
  do {
    depth += summation_depth(block, PerThread);
    n = ceil_div(n, std::uint64_t{PerThread} * block);
  } while (n > 1);
  return depth;
}

// 2, 4, ..., 2^14 inputs a thread: from lesson 06's two to 2^14, which leaves 2^24 inputs 4 blocks.
constexpr std::array<std::string_view, 14> per_thread_names = {
    "2_per_thread",    "4_per_thread",    "8_per_thread",    "16_per_thread",   "32_per_thread",
    "64_per_thread",   "128_per_thread",  "256_per_thread",  "512_per_thread",  "1024_per_thread",
    "2048_per_thread", "4096_per_thread", "8192_per_thread", "16384_per_thread"};

template <unsigned PerThread>
Plan per_thread_plan(std::string_view name) {
  Plan p = tree_plan<PerThread>(
      7, "multiple_elements_per_thread", "Many elements per thread, a fixed number a thread",
      reduce_per_thread<PerThread, NoTrace>, reduce_per_thread<PerThread, RecordTrace>);
  p.variant = name;
  p.depth = per_thread_depth<PerThread>;
  p.loads_in_flight = 2;  // as lesson 07's own plan: in[i] and in[i + Block] each step
  p.load_bytes = 4;
  return p;
}

template <unsigned... Log2>
Plans per_thread_plans(std::integer_sequence<unsigned, Log2...>) {
  return {per_thread_plan<(2u << Log2)>(per_thread_names[Log2])...};
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::elements_per_thread_plans<rl::this_backend>() {
  return per_thread_plans(std::make_integer_sequence<unsigned, per_thread_names.size()>());
}

template <>
rl::Plans rl::lesson_plans<7, rl::this_backend>() {
  Plan p = persistent_plan<items_per_thread, resources>(
      7, "multiple_elements_per_thread", "Many elements per thread, grid sized to the GPU",
      reduce<NoTrace>, reduce<RecordTrace>);
  p.loads_in_flight = 2;  // in[i] and in[i + Block] each step, before either is added
  p.load_bytes = 4;
  Plan chunked = persistent_plan<items_per_thread, resources>(
      7, "multiple_elements_per_thread", "Many elements per thread, grid sized to the GPU",
      reduce<NoTrace, true>, reduce<RecordTrace, true>);
  chunked.variant = "chunked";
  chunked.loads_in_flight = 1;  // one load a step
  chunked.load_bytes = 4;
  // Graded in a trace (common/host/idea.h), on the chunked variant, whose share is the exercise's:
  // the earlier rungs' gains kept (the loop's additions come before the tree, so its depth is not
  // a tree's). The grid sized to the GPU is plan.cu's: a kernel that reads less than its share
  // fails the totals.
  chunked.idea = {.whole_warps = true, .no_bank_conflicts = true, .last_warp_unsynced = true};
  return {p, chunked};
}
