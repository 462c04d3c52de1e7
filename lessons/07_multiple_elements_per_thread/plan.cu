// Lesson 07's launch plan: the grid, the block, the shared memory, and how often the kernel runs.
// main.cpp -> rl::lesson_main<7> -> lesson_plans<7, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/07_multiple_elements_per_thread/multiple_elements_per_thread.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// A persistent grid (as many blocks as fit on the GPU at once, common/grid_size.h) leaves one
// partial per block; the same kernel with one block then sums the partials:
//   multiple_elements_per_thread<Block><<<grid, Block, Block * sizeof(float), stream>>>(in, partials, n);
//   multiple_elements_per_thread<Block><<<1, Block, Block * sizeof(float), stream>>>(partials, out, grid);
template <class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& shape,
            void* stream) {
  const unsigned grid = persistent_grid(n, block, items_per_thread, shape);
  auto* partials = static_cast<float*>(scratch);
  with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = multiple_elements_per_thread<Block, Trace>;
    if (grid == 1) return launch("multiple_elements_per_thread", kernel, dim3(1), dim3(Block), Block * sizeof(float), stream, in, out, n);
    launch("multiple_elements_per_thread", kernel, dim3(grid), dim3(Block), Block * sizeof(float), stream, in, partials, n);
    launch("multiple_elements_per_thread", kernel, dim3(1), dim3(Block), Block * sizeof(float), stream, static_cast<const float*>(partials), out,
           std::uint64_t{grid});
  });
}

std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return persistent_grid(n, block, items_per_thread, shape) * sizeof(float);
}

std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return persistent_depth(n, block, persistent_grid(n, block, items_per_thread, shape), block);
}

}  // namespace
RL_NAMESPACE_END

namespace rl {

template <>
Plans lesson_plans<7, this_backend>() {
  return {{.lesson = 7,
           .slug = "multiple_elements_per_thread",
           .title = "Many elements per thread, grid sized to the GPU",
           .backend = this_backend,
           .scratch_bytes = scratch_bytes,
           .reduce = reduce<NoTrace>,
           .depth = depth,
           .reduce_traced = reduce<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
