// Lesson 05's launch plan: the grid, the block, the shared memory, the passes.
// main.cpp -> rl::lesson_main<5> -> lesson_plans<5, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/plan_entry.h"
#include "lessons/05_unroll_last_warp/unroll_last_warp.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces 2 * `block` inputs to one partial, so the kernel runs again over the partials
// until one block is left (tree_passes, common/grid_size.h):
//   unroll_last_warp<<<ceil(n / (2 * block)), block, smem, stream>>>(in, partials, n);
//   unroll_last_warp<<<ceil(partials / (2 * block)), block, smem, stream>>>(partials, ...);
//   ... until one block writes out, where smem = block * sizeof(float)
// The `narrowing` variant: the same passes; its last warp's levels narrow (unroll_last_warp.cuh).
template <class Trace, bool Narrowing = false>
void reduce(const ReduceCall& c) {
  for (const Pass& pass : tree_passes(c, 2ull * c.block))
    launch("unroll_last_warp", unroll_last_warp<Trace, Narrowing>, dim3(pass.blocks), dim3(c.block),
           c.block * sizeof(float), c.stream, pass.in, pass.out, pass.count);
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<5, rl::this_backend>() {
  Plan p = tree_plan<2>(5, "unroll_last_warp", "Unroll the last warp (__syncwarp-safe)",
                        reduce<NoTrace>, reduce<RecordTrace>);
  Plan narrowing = tree_plan<2>(5, "unroll_last_warp", "Unroll the last warp (__syncwarp-safe)",
                                reduce<NoTrace, true>, reduce<RecordTrace, true>);
  narrowing.variant = "narrowing";
  // Graded in a trace (common/host/idea.h), on the narrowing variant, whose last warp is the
  // exercise's: no block barrier once 32 threads or fewer work, and half the adders each level
  // there. Its waits are the race detector's to judge, in every lane order.
  narrowing.idea = {.tree = true,
                    .whole_warps = true,
                    .no_bank_conflicts = true,
                    .last_warp_unsynced = true,
                    .last_warp_narrows = true};
  return {p, narrowing};
}
