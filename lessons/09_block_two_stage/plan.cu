// Lesson 09's launch plan: a grid sized to the GPU, then one block over its partials.
// main.cpp -> rl::lesson_main<9> -> lesson_plans<9, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/09_block_two_stage/block_two_stage.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// What one SM holds of the kernel at once (common/occupancy.h: the occupancy API on the GPU): the
// persistent grid is that many blocks on every SM.
KernelResources resources(unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return kernel_resources(block_two_stage<Block, NoTrace>, Block, 0, s);
  });
}

// A persistent grid (as many blocks as fit on the GPU at once) leaves one partial per block; the
// same kernel with one block then sums the partials (persistent_passes, common/grid_size.h):
//   block_two_stage<Block><<<grid, Block, 0, stream>>>(in, partials, n);
//   block_two_stage<Block><<<1, Block, 0, stream>>>(partials, out, grid);
// The `everyone` variant: the same grid and passes; every thread ends with its block's total.
template <class Trace, bool Everyone = false>
void reduce(const ReduceCall& c) {
  const unsigned grid =
      persistent_grid(c.n, c.block, items_per_thread, resources(c.block, c.shape), c.shape);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : persistent_passes(c, grid))
      launch("block_two_stage", block_two_stage<Block, Trace, Everyone>, dim3(pass.blocks),
             dim3(Block), 0, c.stream, pass.in, pass.out, pass.count);
  });
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<9, rl::this_backend>() {
  Plan p = persistent_plan<items_per_thread, resources>(9, "block_two_stage",
                                                        "Two-stage block reduce with shuffles",
                                                        reduce<NoTrace>, reduce<RecordTrace>);
  p.loads_in_flight = 2;  // lesson 07's loop (grid_stride_sum): in[i] and in[i + Block] each step
  p.load_bytes = 4;
  Plan everyone = persistent_plan<items_per_thread, resources>(
      9, "block_two_stage", "Two-stage block reduce with shuffles", reduce<NoTrace, true>,
      reduce<RecordTrace, true>);
  everyone.variant = "everyone";
  everyone.loads_in_flight = 2;
  everyone.load_bytes = 4;
  // Graded in a trace (common/host/idea.h), on the everyone variant, whose two stages are the
  // exercise's: shuffles in every warp, and the block meets once. Its last thread stores the total,
  // so a block whose total reaches thread 0 alone fails the totals.
  everyone.idea = {.whole_warps = true,
                   .no_bank_conflicts = true,
                   .last_warp_shuffles = true,
                   .max_barriers = 1};
  return {p, everyone};
}
