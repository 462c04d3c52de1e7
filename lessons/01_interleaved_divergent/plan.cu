// Lesson 01's launch plan: the grid, the block, the shared memory, the passes.
// main.cpp -> rl::lesson_main<1> -> lesson_plans<1, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/plan_entry.h"
#include "lessons/01_interleaved_divergent/interleaved_divergent.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces `block` inputs to one partial, so the kernel runs again over the partials
// until one block is left (tree_passes, common/grid_size.h):
//   interleaved_divergent<<<ceil(n / block), block, smem, stream>>>(in, partials, n);
//   interleaved_divergent<<<ceil(partials / block), block, smem, stream>>>(partials, ...);
//   ... until one block writes out, where smem = block * sizeof(float)
template <bool Bitmask, class Trace>
void reduce(const ReduceCall& c) {
  for (const Pass& pass : tree_passes(c, c.block))
    launch("interleaved_divergent", interleaved_divergent<Bitmask, Trace>, dim3(pass.blocks),
           dim3(c.block), c.block * sizeof(float), c.stream, pass.in, pass.out, pass.count);
}

// The lesson's kernel (`%`), or its `bitmask` variant: the same adders, the same sums.
template <bool Bitmask>
Plan plan() {
  Plan p = tree_plan<1>(1, "interleaved_divergent", "Interleaved addressing, divergent branch",
                        reduce<Bitmask, NoTrace>, reduce<Bitmask, RecordTrace>);
  p.variant = Bitmask ? "bitmask" : "";
  // Graded in a trace (common/host/idea.h): the block's values meet in a tree, not in one thread.
  // On the bitmask variant, whose test is the exercise's.
  if (Bitmask) p.idea = {.tree = true};
  return p;
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<1, rl::this_backend>() {
  return {plan<false>(), plan<true>()};
}
