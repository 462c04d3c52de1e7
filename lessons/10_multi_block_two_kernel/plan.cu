// Lesson 10's launch plan: a partials kernel, then a finishing kernel (or the host) over its
// partials. main.cpp -> rl::lesson_main<10> -> lesson_plans<10, backend>() at the end of this file,
// which CMake compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include <vector>

#include "common/block_dispatch.h"
#include "common/plan_entry.h"
#include "lessons/10_multi_block_two_kernel/multi_block_two_kernel.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// What one SM holds of the partials kernel at once (common/occupancy.h: the occupancy API on the
// GPU): the persistent grid is that many blocks on every SM.
KernelResources resources(unsigned block, const DeviceShape& s) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    return kernel_resources(block_partials<Block, NoTrace>, Block, 0, s);
  });
}

unsigned grid_for(std::uint64_t n, unsigned block, const DeviceShape& s) {
  return persistent_grid(n, block, items_per_thread, resources(block, s), s);
}

// Step 1, shared by both variants: a persistent grid leaves one partial per block; returns how
// many.
//   block_partials<Block><<<grid, Block, 0, stream>>>(in, partials, n);
template <class Trace>
unsigned launch_partials(const ReduceCall& c) {
  const unsigned grid = grid_for(c.n, c.block, c.shape);
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("block_partials", block_partials<Block, Trace>, dim3(grid), dim3(Block), 0, c.stream,
           c.in, static_cast<float*>(c.scratch), c.n);
  });
  return grid;
}

// Step 2 on the GPU: a second launch, one block of 1024 threads.
//   sum_partials<<<1, finish_block, 0, stream>>>(partials, out, grid);
template <class Trace>
void reduce(const ReduceCall& c) {
  const unsigned grid = launch_partials<Trace>(c);
  launch("sum_partials", sum_partials<Trace>, dim3(1), dim3(finish_block), 0, c.stream,
         static_cast<const float*>(c.scratch), c.out, std::uint64_t{grid});
}

// The warp_finish variant: step 2 as one warp of 32 threads.
//   sum_partials_in_a_warp<<<1, 32, 0, stream>>>(partials, out, grid);
template <class Trace>
void reduce_in_a_warp(const ReduceCall& c) {
  const unsigned grid = launch_partials<Trace>(c);
  launch("sum_partials_in_a_warp", sum_partials_in_a_warp<Trace>, dim3(1), dim3(32), 0, c.stream,
         static_cast<const float*>(c.scratch), c.out, std::uint64_t{grid});
}

// The host_finish variant: the host fetches the partials and adds them. One launch fewer, but a device-to-host
// copy and a synchronisation in its place, and the result then has to travel back. A trace of this
// variant ends at the partials: the host's additions are not a kernel's.
template <class Trace>
void reduce_on_host(const ReduceCall& c) {
  const unsigned grid = launch_partials<Trace>(c);
  std::vector<float> partials(grid);
  copy_to_host(partials.data(), c.scratch, grid * sizeof(float), c.stream);
  float total = 0.0f;  // float, in order: the same arithmetic a device finish would do
  for (float p : partials) total += p;
  copy_to_device(c.out, &total, sizeof(float), c.stream);
}

std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return grid_for(n, block, shape) * sizeof(float);
}

std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t grid = grid_for(n, block, shape);
  return summation_depth(block, ceil_div(n, grid * block)) +
         summation_depth(finish_block, ceil_div(grid, finish_block));
}

std::uint64_t depth_in_a_warp(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t grid = grid_for(n, block, shape);
  return summation_depth(block, ceil_div(n, grid * block)) +
         summation_depth(32, ceil_div(grid, 32));
}

std::uint64_t depth_on_host(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t grid = grid_for(n, block, shape);
  return summation_depth(block, ceil_div(n, grid * block)) + grid;
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<10, rl::this_backend>() {
  // The three share kernel 1: its scratch, its grid's resources, its loads (lesson 07's loop,
  // grid_stride_sum: in[i] and in[i + Block]); they differ in step 2 and so in their depth.
  const auto plan = [](std::string_view variant, ReduceFunction reduce, ReduceFunction traced,
                       std::uint64_t (*depth)(std::uint64_t, unsigned, const DeviceShape&)) {
    Plan p = lesson_plan(10, "multi_block_two_kernel", "Partials kernel, then a finishing kernel",
                         reduce, traced);
    p.variant = variant;
    p.scratch_bytes = scratch_bytes;
    p.depth = depth;
    p.resources = resources;
    p.loads_in_flight = 2;
    p.load_bytes = 4;
    return p;
  };
  Plan two_kernels = plan("", reduce<NoTrace>, reduce<RecordTrace>, depth);
  Plan warp_finish = plan("warp_finish", reduce_in_a_warp<NoTrace>, reduce_in_a_warp<RecordTrace>,
                          depth_in_a_warp);
  // Graded in a trace (common/host/idea.h) of the last launch, the warp_finish variant's step 2,
  // which is the exercise's: its shuffles, and no __syncthreads at all. The two launches whatever
  // n are plan.cu's.
  warp_finish.idea = {.last_warp_shuffles = true, .max_barriers = 0, .last_launch = true};
  Plan host_finish =
      plan("host_finish", reduce_on_host<NoTrace>, reduce_on_host<RecordTrace>, depth_on_host);
  return {two_kernels, warp_finish, host_finish};
}
