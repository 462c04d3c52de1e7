// Lesson 12's launch plan: one launch, a persistent grid of 1024-thread blocks.
// main.cpp -> rl::lesson_main<12> -> lesson_plans<12, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/12_single_pass/single_pass.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 16;  // below this many a block isn't worth launching

// What one SM holds of the kernel at once (common/occupancy.h: the occupancy API on the GPU, which
// counts its registers): the persistent grid is that many blocks on every SM, but no more than give
// each thread items_per_thread floats.
// How a launch finishes: the lesson's ticket between two fences, the ticket that orders by itself
// (the ordered_ticket variant), or one atomicAdd per block (atomic_finish).
enum class Finish { fenced_ticket, ordered_ticket, atomic };

template <Finish F>
KernelResources resources(unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    if constexpr (F == Finish::atomic)
      return kernel_resources(single_pass_atomic<Block, NoTrace>, Block, 0, s);
    else if constexpr (F == Finish::ordered_ticket)
      return kernel_resources(single_pass_ordered_ticket<Block, NoTrace>, Block, 0, s);
    else
      return kernel_resources(single_pass<Block, 4, QuadOrder::interleaved, NoTrace>, Block, 0, s);
  });
}

template <Finish F = Finish::fenced_ticket>
unsigned grid_for(std::uint64_t n, unsigned block, const DeviceShape& s) {
  return persistent_grid(n, block, items_per_thread, resources<F>(block, s), s);
}

// Four float4 loads in flight, interleaved over the grid, 1024 threads a block: the fastest of the
// shapes measured on the H100 (README.md); the template stays so the exercise can try others.
//   single_pass<Block><<<grid, Block, 0, stream>>>(in, out, n, partials);
template <class Trace>
void reduce(const ReduceCall& c) {
  const unsigned grid = grid_for(c.n, c.block, c.shape);
  name_buffer(c.scratch, grid * sizeof(float), "partials");  // the simulator's race reports
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("single_pass", single_pass<Block, 4, QuadOrder::interleaved, Trace>, dim3(grid),
           dim3(Block), 0, c.stream, c.in, c.out, c.n, static_cast<float*>(c.scratch));
  });
}

// The same launch with the ticket that orders by itself (exercise 12 asks for its kernel).
//   single_pass_ordered_ticket<Block><<<grid, Block, 0, stream>>>(in, out, n, partials);
template <class Trace>
void reduce_ordered(const ReduceCall& c) {
  const unsigned grid = grid_for<Finish::ordered_ticket>(c.n, c.block, c.shape);
  name_buffer(c.scratch, grid * sizeof(float), "partials");
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("single_pass_ordered_ticket", single_pass_ordered_ticket<Block, Trace>, dim3(grid),
           dim3(Block), 0, c.stream, c.in, c.out, c.n, static_cast<float*>(c.scratch));
  });
}

// The contrast: the total zeroed, then one atomicAdd per block.
//   cudaMemsetAsync(out, 0, sizeof(float), stream);
//   single_pass_atomic<Block><<<grid, Block, 0, stream>>>(in, out, n);
template <class Trace>
void reduce_atomic(const ReduceCall& c) {
  const unsigned grid = grid_for<Finish::atomic>(c.n, c.block, c.shape);
  zero_async(c.out, sizeof(float), c.stream);  // the atomics add into it
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("single_pass_atomic", single_pass_atomic<Block, Trace>, dim3(grid), dim3(Block), 0,
           c.stream, c.in, c.out, c.n);
  });
}

template <Finish F>
std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return grid_for<F>(n, block, shape) * sizeof(float);
}

// A thread's run of quads (each quad two levels), head and tail, two block sums and the finish's
// run.
template <Finish F>
std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t g = grid_for<F>(n, block, shape);
  return ceil_div(n, 4 * g * block) + 4 + 2 * summation_depth(block, 0) + ceil_div(g, block);
}

std::uint64_t depth_atomic(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t g = grid_for<Finish::atomic>(n, block, shape);
  return ceil_div(n, 4 * g * block) + 4 + summation_depth(block, 0) + g;
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<12, rl::this_backend>() {
  constexpr std::string_view slug = "single_pass",
                             title = "Single pass: vector loads, last block finishes";
  Plan last_block = lesson_plan(12, slug, title, reduce<NoTrace>, reduce<RecordTrace>);
  last_block.preferred_block = 1024;  // fewer, wider blocks: fewer partials to finish
  last_block.scratch_bytes = scratch_bytes<Finish::fenced_ticket>;
  last_block.depth = depth<Finish::fenced_ticket>;
  last_block.resources = resources<Finish::fenced_ticket>;
  last_block.loads_in_flight = 4;  // four float4s issued before the first is added
  last_block.load_bytes = 16;
  Plan ordered = lesson_plan(12, slug, title, reduce_ordered<NoTrace>, reduce_ordered<RecordTrace>);
  ordered.variant = "ordered_ticket";
  ordered.preferred_block = 1024;
  ordered.scratch_bytes = scratch_bytes<Finish::ordered_ticket>;
  ordered.depth = depth<Finish::ordered_ticket>;
  ordered.resources = resources<Finish::ordered_ticket>;
  ordered.loads_in_flight = 4;
  ordered.load_bytes = 16;
  ordered.idea.no_fences = true;  // the exercise's variant: the ticket's own order, no fence
  Plan atomic = lesson_plan(12, slug, title, reduce_atomic<NoTrace>, reduce_atomic<RecordTrace>);
  atomic.variant = "atomic_finish";
  atomic.preferred_block = 1024;
  atomic.scratch_bytes = scratch_bytes<Finish::atomic>;
  atomic.depth = depth_atomic;
  atomic.resources = resources<Finish::atomic>;
  atomic.loads_in_flight = 4;
  atomic.load_bytes = 16;
  return {last_block, ordered, atomic};
}
