// Lesson 09's launch plan: a grid sized to the GPU, then one block over its partials.
// main.cpp -> rl::lesson_main<9> -> lesson_plans<9, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/09_block_two_stage/block_two_stage.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// A persistent grid (as many blocks as fit on the GPU at once) leaves one partial per block; the
// same kernel with one block then sums the partials (persistent_passes, common/grid_size.h):
//   block_two_stage<Block><<<grid, Block, 0, stream>>>(in, partials, n);
//   block_two_stage<Block><<<1, Block, 0, stream>>>(partials, out, grid);
template <class Trace>
void reduce(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : persistent_passes(c, items_per_thread))
      launch("block_two_stage", block_two_stage<Block, Trace>, dim3(pass.blocks), dim3(Block), 0,
             c.stream, pass.in, pass.out, pass.count);
  });
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<9, rl::this_backend>() {
  return {persistent_plan<items_per_thread>(9, "block_two_stage",
                                            "Two-stage block reduce with shuffles", reduce<NoTrace>,
                                            reduce<RecordTrace>)};
}
