// Lesson 07's launch plan: a grid sized to the GPU, then one block over its partials.
// main.cpp -> rl::lesson_main<7> -> lesson_plans<7, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/07_multiple_elements_per_thread/multiple_elements_per_thread.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// What one SM holds of the kernel at once (common/occupancy.h: the occupancy API on the GPU): the
// persistent grid is that many blocks on every SM.
KernelResources resources(unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return kernel_resources(multiple_elements_per_thread<Block, NoTrace>, Block,
                            Block * sizeof(float), s);
  });
}

// A persistent grid (as many blocks as fit on the GPU at once) leaves one partial per block; the
// same kernel with one block then sums the partials (persistent_passes, common/grid_size.h):
//   multiple_elements_per_thread<Block><<<grid, Block, smem, stream>>>(in, partials, n);
//   multiple_elements_per_thread<Block><<<1, Block, smem, stream>>>(partials, out, grid);
//   where smem = Block * sizeof(float)
template <class Trace>
void reduce(const ReduceCall& c) {
  const unsigned grid =
      persistent_grid(c.n, c.block, items_per_thread, resources(c.block, c.shape), c.shape);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : persistent_passes(c, grid))
      launch("multiple_elements_per_thread", multiple_elements_per_thread<Block, Trace>,
             dim3(pass.blocks), dim3(Block), Block * sizeof(float), c.stream, pass.in, pass.out,
             pass.count);
  });
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<7, rl::this_backend>() {
  Plan p = persistent_plan<items_per_thread, resources>(
      7, "multiple_elements_per_thread", "Many elements per thread, grid sized to the GPU",
      reduce<NoTrace>, reduce<RecordTrace>);
  p.loads_in_flight = 2;  // in[i] and in[i + Block] each step, before either is added
  p.load_bytes = 4;
  return {p};
}
