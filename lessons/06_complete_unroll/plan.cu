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

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<6, rl::this_backend>() {
  Plan p = tree_plan<2>(6, "complete_unroll", "Complete unroll (block size as a template)",
                        reduce<NoTrace>, reduce<RecordTrace>);
  // Graded in a trace (common/host/idea.h): lesson 05's idea kept. The unrolling itself leaves
  // the same tree in a trace (a loop with a constant bound unrolls the same way), so the trace
  // cannot grade it.
  p.idea = {
      .tree = true, .whole_warps = true, .no_bank_conflicts = true, .last_warp_unsynced = true};
  return {p};
}
