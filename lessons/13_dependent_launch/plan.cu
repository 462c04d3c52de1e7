// Lesson 13's launch plans: lesson 12's single pass with every call launched to overlap the call
// before it (programmatic dependent launch), the lesson's own; and lesson 10's two kernels with the
// second launched plainly (`two_kernel`) or overlapping the first (`two_kernel_pdl`).
// main.cpp -> rl::lesson_main<13> -> lesson_plans<13, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include <algorithm>

#include "common/block_dispatch.h"
#include "common/occupancy.h"
#include "common/plan_entry.h"
#include "lessons/13_dependent_launch/dependent_launch.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 16;  // lesson 12's: each thread's share at least 4 float4s

// As many blocks of `kernel` as the GPU holds at once (the occupancy API), no more than the input
// can feed with items_per_thread floats a thread.
template <unsigned Block, class... Params>
unsigned grid_for(void (*kernel)(Params...), std::uint64_t n, const DeviceShape& shape) {
  return std::min(useful_blocks(n, Block * items_per_thread),
                  resident_blocks(kernel, Block, 0, shape));
}

// The lesson's own: lesson 12's plan, launched through cudaLaunchKernelEx with the attribute
//   cudaLaunchAttributeProgrammaticStreamSerialization = 1
//   dependent_single_pass<Block><<<grid, Block, 0, stream>>>(in, out, n, partials);
template <class Trace>
void reduce(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = dependent_single_pass<Block, Trace>;
    const unsigned grid = grid_for<Block>(kernel, c.n, c.shape);
    name_buffer(c.scratch, grid * sizeof(float), "partials");  // for race reports
    launch_ex("dependent_single_pass", kernel, dim3(grid), dim3(Block), 0, c.stream,
              LaunchAttributes{.programmatic_dependency = true}, c.in, c.out, c.n,
              static_cast<float*>(c.scratch));
  });
}

// The same launch of the late_wait variant (exercise 13 asks for its kernel).
template <class Trace>
void reduce_late_wait(const ReduceCall& c) {
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = dependent_single_pass_late_wait<Block, Trace>;
    const unsigned grid = grid_for<Block>(kernel, c.n, c.shape);
    name_buffer(c.scratch, grid * sizeof(float), "partials");
    launch_ex("dependent_single_pass_late_wait", kernel, dim3(grid), dim3(Block), 0, c.stream,
              LaunchAttributes{.programmatic_dependency = true}, c.in, c.out, c.n,
              static_cast<float*>(c.scratch));
  });
}

// Lesson 10's two kernels, the finishing one with programmatic_dependency (Pdl) or plainly:
//   streaming_partials<Block><<<grid, Block, 0, stream>>>(in, partials, n);
//   finish_partials<<<1, finish_block, 0, stream>>>(partials, out, grid);  + the attribute if Pdl
template <bool Pdl, class Trace>
void reduce_in_two_kernels(const ReduceCall& c) {
  auto* partials = static_cast<float*>(c.scratch);
  unsigned grid = 0;
  with_block_size(c.block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = streaming_partials<Block, Trace>;
    grid = grid_for<Block>(kernel, c.n, c.shape);
    // Through cudaLaunchKernelEx as well, with no attribute: a plain launch, which the dependent
    // launch after it may overlap (as the simulator then shows, running them in the earliest order
    // CUDA allows).
    launch_ex("streaming_partials", kernel, dim3(grid), dim3(Block), 0, c.stream,
              LaunchAttributes{}, c.in, partials, c.n);
  });
  name_buffer(partials, grid * sizeof(float), "partials");  // for race reports
  launch_ex("finish_partials", finish_partials<Trace>, dim3(1), dim3(finish_block), 0, c.stream,
            LaunchAttributes{.programmatic_dependency = Pdl}, partials, c.out, std::uint64_t{grid});
}

// Every plan keeps one partial a block, and never more blocks than the input can feed.
std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape&) {
  return useful_blocks(n, std::uint64_t{block} * items_per_thread) * sizeof(float);
}

// A thread's run over a grid of g blocks (quads, each two levels, head and tail), its block's tree,
// and the last block's run and tree over the g partials (lesson 12's plan.cu).
template <bool LateWait>
std::uint64_t own_depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const std::uint64_t g =
        LateWait ? grid_for<Block>(dependent_single_pass_late_wait<Block, NoTrace>, n, shape)
                 : grid_for<Block>(dependent_single_pass<Block, NoTrace>, n, shape);
    return ceil_div(n, 4 * g * block) + 4 + 2 * summation_depth(block, 0) + ceil_div(g, block);
  });
}

// The same run and tree, then the finishing block's over the g partials.
std::uint64_t two_kernel_depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const std::uint64_t g = grid_for<Block>(streaming_partials<Block, NoTrace>, n, shape);
    return ceil_div(n, 4 * g * block) + 4 + summation_depth(block, 0) +
           summation_depth(finish_block, ceil_div(g, finish_block));
  });
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<13, rl::this_backend>() {
  constexpr std::string_view slug = "dependent_launch",
                             title = "Programmatic dependent launch: each call overlaps the last";
  const auto plan = [&](std::string_view variant, ReduceFunction reduce, ReduceFunction traced,
                        auto depth, bool programmatic) {
    Plan p = lesson_plan(13, slug, title, reduce, traced);
    p.variant = variant;
    p.preferred_block = 1024;
    p.scratch_bytes = scratch_bytes;
    p.depth = depth;
    p.way.programmatic = programmatic;  // compared with the ceiling launched the same way
    return p;
  };
  Plan late_wait = plan("late_wait", reduce_late_wait<NoTrace>, reduce_late_wait<RecordTrace>,
                        own_depth<true>, true);
  late_wait.idea.works_before_wait = true;  // the exercise's variant: its block sum, then the wait
  return {plan("", reduce<NoTrace>, reduce<RecordTrace>, own_depth<false>, true), late_wait,
          plan("two_kernel", reduce_in_two_kernels<false, NoTrace>,
               reduce_in_two_kernels<false, RecordTrace>, two_kernel_depth, false),
          plan("two_kernel_pdl", reduce_in_two_kernels<true, NoTrace>,
               reduce_in_two_kernels<true, RecordTrace>, two_kernel_depth, true)};
}
