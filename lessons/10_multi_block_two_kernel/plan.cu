// Lesson 10's launch plan: a partials kernel, then a finishing kernel (or the host) over its partials.
// main.cpp -> rl::lesson_main<10> -> lesson_plans<10, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include <vector>

#include "common/block_dispatch.h"
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/10_multi_block_two_kernel/multi_block_two_kernel.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// Step 1, shared by both variants: a persistent grid leaves one partial per block.
//   block_partials<Block><<<grid, Block, 0, stream>>>(in, partials, n);
// Returns how many partials it wrote.
template <class Trace>
unsigned launch_partials(const float* in, float* partials, std::uint64_t n, unsigned block, const DeviceShape& shape,
                         void* stream) {
  const unsigned grid = persistent_grid(n, block, items_per_thread, shape);
  with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("block_partials", block_partials<Block, Trace>, dim3(grid), dim3(Block), 0, stream, in, partials, n);
  });
  return grid;
}

// Step 2 on the GPU: a second launch, one block of 1024 threads.
//   sum_partials<<<1, finish_block, 0, stream>>>(partials, out, grid);
template <class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& shape,
            void* stream) {
  auto* partials = static_cast<float*>(scratch);
  const unsigned grid = launch_partials<Trace>(in, partials, n, block, shape, stream);
  launch("sum_partials", sum_partials<Trace>, dim3(1), dim3(finish_block), 0, stream,
         static_cast<const float*>(partials), out, std::uint64_t{grid});
}

// The variant: the host fetches the partials and adds them. One launch fewer, but a device-to-host
// copy and a synchronisation in its place, and the result then has to travel back. A trace of this
// variant ends at the partials: the host's additions are not a kernel's.
template <class Trace>
void reduce_on_host(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch,
                    const DeviceShape& shape, void* stream) {
  auto* partials = static_cast<float*>(scratch);
  const unsigned grid = launch_partials<Trace>(in, partials, n, block, shape, stream);
  std::vector<float> host(grid);
  copy_to_host(host.data(), partials, grid * sizeof(float), stream);
  float total = 0.0f;  // float, in order: the same arithmetic a device finish would do
  for (float p : host) total += p;
  copy_to_device(out, &total, sizeof(float), stream);
}

std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return persistent_grid(n, block, items_per_thread, shape) * sizeof(float);
}

std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t grid = persistent_grid(n, block, items_per_thread, shape);
  return summation_depth(block, ceil_div(n, grid * block)) + summation_depth(finish_block, ceil_div(grid, finish_block));
}

std::uint64_t depth_on_host(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t grid = persistent_grid(n, block, items_per_thread, shape);
  return summation_depth(block, ceil_div(n, grid * block)) + grid;
}

}  // namespace
RL_NAMESPACE_END

namespace rl {

template <>
Plans lesson_plans<10, this_backend>() {
  return {{.lesson = 10,
           .slug = "multi_block_two_kernel",
           .title = "Partials kernel, then a finishing kernel",
           .backend = this_backend,
           .scratch_bytes = scratch_bytes,
           .reduce = reduce<NoTrace>,
           .depth = depth,
           .reduce_traced = reduce<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source},
          {.lesson = 10,
           .slug = "multi_block_two_kernel",
           .title = "Partials kernel, then a finishing kernel",
           .variant = "host_finish",
           .backend = this_backend,
           .scratch_bytes = scratch_bytes,
           .reduce = reduce_on_host<NoTrace>,
           .depth = depth_on_host,
           .reduce_traced = reduce_on_host<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
