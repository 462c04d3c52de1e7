// Lesson 04's launch plan: the grid, the block, the shared memory, the passes.
// main.cpp -> rl::lesson_main<4> -> lesson_plans<4, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/plan_entry.h"
#include "lessons/04_first_add_during_load/first_add_during_load.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces 2 * `block` inputs to one partial, so the kernel runs again over the partials
// until one block is left (tree_passes, common/grid_size.h):
//   first_add_during_load<<<ceil(n / (2 * block)), block, smem, stream>>>(in, partials, n);
//   first_add_during_load<<<ceil(partials / (2 * block)), block, smem, stream>>>(partials, ...);
//   ... until one block writes out, where smem = block * sizeof(float)
// The `halves` variant: the same passes and grids; each thread's second input is the grid's reach
// further on instead of one block.
template <class Trace, bool Halves = false>
void reduce(const ReduceCall& c) {
  for (const Pass& pass : tree_passes(c, 2ull * c.block))
    launch("first_add_during_load", first_add_during_load<Trace, Halves>, dim3(pass.blocks),
           dim3(c.block), c.block * sizeof(float), c.stream, pass.in, pass.out, pass.count);
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<4, rl::this_backend>() {
  Plan p = tree_plan<2>(4, "first_add_during_load", "First add during load", reduce<NoTrace>,
                        reduce<RecordTrace>);
  Plan halves = tree_plan<2>(4, "first_add_during_load", "First add during load",
                             reduce<NoTrace, true>, reduce<RecordTrace, true>);
  halves.variant = "halves";
  // Graded in a trace (common/host/idea.h), on the halves variant, whose loads are the exercise's:
  // lesson 03's gains kept, and block 0 reading past the grid's reach (lesson 04's own loads, one
  // block apart, add up right on this grid too). The add during the load itself needs no trace:
  // with half the blocks, a kernel that loads one element a thread loses half the input.
  halves.idea = {
      .tree = true, .whole_warps = true, .no_bank_conflicts = true, .loads_past_reach = true};
  return {p, halves};
}
