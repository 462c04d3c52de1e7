// Lesson 11's launch plans: a persistent grid of stream_sum for each (loads in flight, load width)
// the lesson compares, then one block over its partials; and the pointer chase's one thread.
// main.cpp -> rl::lesson_main<11> -> lesson_plans<11, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include <bit>

#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/11_latency_and_roofline/chase.h"
#include "lessons/11_latency_and_roofline/pointer_chase.cuh"
#include "lessons/11_latency_and_roofline/stream_sum.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 16;  // below this many a block isn't worth launching

// The kernel a plan launches: stream_sum, or (Ahead) the exercise's stream_sum_ahead.
template <unsigned Block, unsigned Loads, unsigned Bytes, bool Ahead, class Trace>
constexpr auto kernel() {
  if constexpr (Ahead)
    return stream_sum_ahead<Block, Loads, Bytes, Trace>;
  else
    return stream_sum<Block, Loads, Bytes, Trace>;
}

// What one SM holds of the kernel at once (common/occupancy.h: the occupancy API on the GPU, which
// counts the registers its loads in flight take): the persistent grid is that many blocks an SM.
template <unsigned Loads, unsigned Bytes, bool Ahead>
KernelResources resources(unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return kernel_resources(kernel<Block, Loads, Bytes, Ahead, NoTrace>(), Block, 0, s);
  });
}

// A persistent grid leaves one partial per block; the same kernel with one block then sums them
// (persistent_passes, common/grid_size.h):
//   stream_sum<Block, Loads, Bytes><<<grid, Block, 0, stream>>>(in, partials, n);
//   stream_sum<Block, Loads, Bytes><<<1, Block, 0, stream>>>(partials, out, grid);
template <unsigned Loads, unsigned Bytes, bool Ahead, class Trace>
void reduce(const ReduceCall& c) {
  const unsigned grid = persistent_grid(c.n, c.block, items_per_thread,
                                        resources<Loads, Bytes, Ahead>(c.block, c.shape), c.shape);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    for (const Pass& pass : persistent_passes(c, grid))
      launch(Ahead ? "stream_sum_ahead" : "stream_sum", kernel<Block, Loads, Bytes, Ahead, Trace>(),
             dim3(pass.blocks), dim3(Block), 0, c.stream, pass.in, pass.out, pass.count);
  });
}

// One launch's longest chain of additions: a thread adds one load's floats a turn (each load's own
// log2(floats) levels first), then head and tail, then block_sum's tree.
template <unsigned Bytes>
std::uint64_t pass_depth(std::uint64_t n, unsigned block, std::uint64_t grid) {
  constexpr unsigned per_load = Bytes / sizeof(float);
  const std::uint64_t loads = ceil_div(n, std::uint64_t{per_load} * grid * block);
  return loads + (std::bit_width(per_load) - 1) + 2 + summation_depth(block, 0);
}

template <unsigned Loads, unsigned Bytes, bool Ahead>
std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& s) {
  const std::uint64_t grid =
      persistent_grid(n, block, items_per_thread, resources<Loads, Bytes, Ahead>(block, s), s);
  return pass_depth<Bytes>(n, block, grid) + (grid > 1 ? pass_depth<Bytes>(grid, block, 1) : 0);
}

template <unsigned Loads, unsigned Bytes, bool Ahead = false>
Plan plan(std::string_view variant) {
  Plan p = persistent_plan<items_per_thread, resources<Loads, Bytes, Ahead>>(
      11, "latency_and_roofline", "Latency and the roofline: bytes in flight",
      reduce<Loads, Bytes, Ahead, NoTrace>, reduce<Loads, Bytes, Ahead, RecordTrace>);
  p.variant = variant;
  p.depth = depth<Loads, Bytes, Ahead>;
  // as the source issues them: stream_sum_ahead has two turns issued before it waits
  p.loads_in_flight = Ahead ? 2 * Loads : Loads;
  p.load_bytes = Bytes;
  if (Ahead) p.idea.loads_ahead = 2 * Loads;  // the exercise's variant: checked in a trace
  return p;
}

}  // namespace
RL_NAMESPACE_END

template <>
void rl::latency::launch_chase<rl::this_backend>(const unsigned* next, unsigned* at,
                                                 std::uint64_t hops, unsigned long long* visited,
                                                 void* stream) {
  launch("pointer_chase", pointer_chase, dim3(1), dim3(1), 0, stream, next, at, hops, visited);
}

// The lesson's own kernel with the loads stream_sum.cuh chooses (the exercise's), then the points
// the lesson's table compares: as many bytes in flight spent in other ways, fewer, and more; and the
// exercise's variant, one float4 a turn with the next turn issued before a turn is added.
template <>
rl::Plans rl::lesson_plans<11, rl::this_backend>() {
  return {plan<loads_in_flight, load_bytes>(""),
          plan<1, 4>("1x4B"),
          plan<4, 4>("4x4B"),
          plan<2, 8>("2x8B"),
          plan<1, 16>("1x16B"),
          plan<8, 16>("8x16B"),
          plan<1, 16, true>("load_ahead")};
}
