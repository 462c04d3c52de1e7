// Lesson 02's launch plan: the grid, the block, the shared memory, the passes.
// main.cpp -> rl::lesson_main<2> -> lesson_plans<2, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/plan_entry.h"
#include "lessons/02_interleaved_strided/interleaved_strided.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces `block` inputs to one partial, so the kernel runs again over the partials
// until one block is left (tree_passes, common/grid_size.h):
//   interleaved_strided<<<ceil(n / block), block, smem, stream>>>(in, partials, n);
//   interleaved_strided<<<ceil(partials / block), block, smem, stream>>>(partials, ...);
//   ... until one block writes out, where smem = block * sizeof(float)
template <class Trace>
void reduce(const ReduceCall& c) {
  for (const Pass& pass : tree_passes(c, c.block))
    launch("interleaved_strided", interleaved_strided<Trace>, dim3(pass.blocks), dim3(c.block),
           c.block * sizeof(float), c.stream, pass.in, pass.out, pass.count);
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<2, rl::this_backend>() {
  Plan p = tree_plan<1>(2, "interleaved_strided", "Interleaved addressing, strided index",
                        reduce<NoTrace>, reduce<RecordTrace>);
  // Graded in a trace (common/host/idea.h): lesson 01's divergent warps gone.
  p.idea = {.tree = true, .whole_warps = true};
  return {p};
}
