// Lesson 03's launch plan: the grid, the block, the shared memory, the passes.
// main.cpp -> rl::lesson_main<3> -> lesson_plans<3, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/plan_entry.h"
#include "lessons/03_sequential_addressing/sequential_addressing.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces `block` inputs to one partial, so the kernel runs again over the partials
// until one block is left (tree_passes, common/grid_size.h):
//   sequential_addressing<<<ceil(n / block), block, smem, stream>>>(in, partials, n);
//   sequential_addressing<<<ceil(partials / block), block, smem, stream>>>(partials, ...);
//   ... until one block writes out, where smem = block * sizeof(float)
template <class Trace>
void reduce(const ReduceCall& c) {
  for (const Pass& pass : tree_passes(c, c.block))
    launch("sequential_addressing", sequential_addressing<Trace>, dim3(pass.blocks), dim3(c.block),
           c.block * sizeof(float), c.stream, pass.in, pass.out, pass.count);
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<3, rl::this_backend>() {
  Plan p = tree_plan<1>(3, "sequential_addressing", "Sequential addressing", reduce<NoTrace>,
                        reduce<RecordTrace>);
  // Graded in a trace (common/host/idea.h): lesson 02's bank conflicts gone, its whole warps kept.
  p.idea = {.tree = true, .whole_warps = true, .no_bank_conflicts = true};
  return {p};
}
