// Lesson 06's launch plan: the grid, the block, the shared memory, the passes.
// main.cpp -> rl::lesson_main<6> -> lesson_plans<6, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/06_complete_unroll/complete_unroll.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces 2 * `Block` inputs to one partial, so the kernel runs again over the partials
// until one block is left (tree_passes, common/grid_size.h), with the kernel compiled for the
// run's block size (with_block_size, common/block_dispatch.h):
//   complete_unroll<Block><<<ceil(n / (2 * Block)), block, smem, stream>>>(in, partials, n);
//   complete_unroll<Block><<<ceil(partials / (2 * Block)), block, smem, stream>>>(partials, ..);
//   ... until one block writes out, where smem = Block * sizeof(float)
template <class Trace>
void reduce(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : tree_passes(c, 2 * Block))
      launch("complete_unroll", complete_unroll<Block, Trace>, dim3(pass.blocks), dim3(Block),
             Block * sizeof(float), c.stream, pass.in, pass.out, pass.count);
  });
}

// The `non_power_of_two` variant's Block: three quarters of the run's block from 128 threads on
// (96, 192, 384, 768), the block itself below (its warp tail needs whole warps).
constexpr unsigned three_quarters(unsigned block) { return block >= 128 ? 3 * block / 4 : block; }

template <class Trace>
void reduce_any_block(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    constexpr unsigned Threads = three_quarters(Block);
    for (const Pass& pass : tree_passes(c, 2 * Threads))
      launch("complete_unroll_any_block", complete_unroll_any_block<Threads, Trace>,
             dim3(pass.blocks), dim3(Threads), Threads * sizeof(float), c.stream, pass.in, pass.out,
             pass.count);
  });
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<6, rl::this_backend>() {
  Plan p = tree_plan<2>(6, "complete_unroll", "Complete unroll (block size as a template)",
                        reduce<NoTrace>, reduce<RecordTrace>);
  Plan any = tree_plan<2>(6, "complete_unroll", "Complete unroll (block size as a template)",
                          reduce_any_block<NoTrace>, reduce_any_block<RecordTrace>);
  any.variant = "non_power_of_two";
  any.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_scratch_bytes(n, 2ull * three_quarters(block));
  };
  any.depth = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_depth(n, 2ull * three_quarters(block));
  };
  // Graded in a trace (common/host/idea.h), on this variant, whose levels are the exercise's:
  // lesson 05's idea kept at 192 threads. A chain that halves an odd count rounded up leaves a
  // warp with idle lanes beside working ones; one that halves down loses values (the totals). The
  // unrolling itself leaves the same tree in a trace (a loop with a constant bound unrolls the same
  // way), so the trace cannot grade it.
  any.idea = {
      .tree = true, .whole_warps = true, .no_bank_conflicts = true, .last_warp_unsynced = true};
  return {p, any};
}
