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

// The `non_power_of_two` variant: three quarters of the block's threads (192 for 256, 24 for 32),
// a block size that is not a power of two, each block reducing that many inputs.
unsigned three_quarters(unsigned block) { return 3 * block / 4; }

template <class Trace>
void reduce_any_block(const ReduceCall& c) {
  const unsigned threads = three_quarters(c.block);
  for (const Pass& pass : tree_passes(c, threads))
    launch("sequential_addressing_any_block", sequential_addressing_any_block<Trace>,
           dim3(pass.blocks), dim3(threads), threads * sizeof(float), c.stream, pass.in, pass.out,
           pass.count);
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<3, rl::this_backend>() {
  Plan p = tree_plan<1>(3, "sequential_addressing", "Sequential addressing", reduce<NoTrace>,
                        reduce<RecordTrace>);
  Plan any = tree_plan<1>(3, "sequential_addressing", "Sequential addressing",
                          reduce_any_block<NoTrace>, reduce_any_block<RecordTrace>);
  any.variant = "non_power_of_two";
  any.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_scratch_bytes(n, three_quarters(block));
  };
  any.depth = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_depth(n, three_quarters(block));
  };
  // Graded in a trace (common/host/idea.h), on this variant, whose tree is the exercise's: lesson
  // 02's bank conflicts gone and its whole warps kept, at 192 threads. A tree that halves an odd
  // count loses a value (the totals); one that rounds each half up leaves a warp with idle lanes
  // beside working ones (whole warps).
  any.idea = {.tree = true, .whole_warps = true, .no_bank_conflicts = true};
  return {p, any};
}
