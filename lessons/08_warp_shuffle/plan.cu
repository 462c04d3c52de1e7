// Lesson 08's launch plan: a grid sized to the GPU, then one block over its partials.
// main.cpp -> rl::lesson_main<8> -> lesson_plans<8, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/08_warp_shuffle/warp_shuffle.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// What one SM holds of the kernel at once (common/occupancy.h: the occupancy API on the GPU): the
// persistent grid is that many blocks on every SM.
template <bool Butterfly>
KernelResources resources(unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return kernel_resources(warp_shuffle<Block, Butterfly, NoTrace>, Block, Block * sizeof(float),
                            s);
  });
}

// A persistent grid (as many blocks as fit on the GPU at once) leaves one partial per block; the
// same kernel with one block then sums the partials (persistent_passes, common/grid_size.h):
//   warp_shuffle<Block, Butterfly><<<grid, Block, smem, stream>>>(in, partials, n);
//   warp_shuffle<Block, Butterfly><<<1, Block, smem, stream>>>(partials, out, grid);
//   where smem = Block * sizeof(float)
template <bool Butterfly, class Trace>
void reduce(const ReduceCall& c) {
  const unsigned grid = persistent_grid(c.n, c.block, items_per_thread,
                                        resources<Butterfly>(c.block, c.shape), c.shape);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : persistent_passes(c, grid))
      launch("warp_shuffle", warp_shuffle<Block, Butterfly, Trace>, dim3(pass.blocks), dim3(Block),
             Block * sizeof(float), c.stream, pass.in, pass.out, pass.count);
  });
}

// Lesson 07's loop (grid_stride_sum): in[i] and in[i + Block] each step, before either is added.
template <bool Butterfly>
Plan plan(std::string_view title) {
  Plan p = persistent_plan<items_per_thread, resources<Butterfly>>(
      8, "warp_shuffle", title, reduce<Butterfly, NoTrace>, reduce<Butterfly, RecordTrace>);
  p.loads_in_flight = 2;
  p.load_bytes = 4;
  return p;
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<8, rl::this_backend>() {
  constexpr std::string_view title = "Warp shuffles for the last levels";
  Plan own = plan<false>(title), butterfly = plan<true>(title);
  butterfly.variant = "butterfly";
  // Graded in a trace (common/host/idea.h), on the butterfly variant, whose exchange is the
  // exercise's: the last warp's levels through shuffles. Its last lane stores the total, so a
  // tail that leaves it in lane 0 alone fails the totals.
  butterfly.idea = {.whole_warps = true, .no_bank_conflicts = true, .last_warp_shuffles = true};
  return {own, butterfly};
}
