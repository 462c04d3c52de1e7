// Lesson 08's launch plan: the grid, the block, the shared memory, and how often the kernel runs.
// main.cpp -> rl::lesson_main<8> -> lesson_plans<8, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/08_warp_shuffle/warp_shuffle.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 2;  // at least this many inputs per thread, or fewer blocks

// A persistent grid (as many blocks as fit on the GPU at once, common/grid_size.h) leaves one
// partial per block; the same kernel with one block then sums the partials:
//   warp_shuffle<Block, Butterfly><<<grid, Block, Block * sizeof(float), stream>>>(in, partials, n);
//   warp_shuffle<Block, Butterfly><<<1, Block, Block * sizeof(float), stream>>>(partials, out, grid);
template <bool Butterfly, class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& shape,
            void* stream) {
  const unsigned grid = persistent_grid(n, block, items_per_thread, shape);
  auto* partials = static_cast<float*>(scratch);
  with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    const auto kernel = warp_shuffle<Block, Butterfly, Trace>;
    if (grid == 1) return launch("warp_shuffle", kernel, dim3(1), dim3(Block), Block * sizeof(float), stream, in, out, n);
    launch("warp_shuffle", kernel, dim3(grid), dim3(Block), Block * sizeof(float), stream, in, partials, n);
    launch("warp_shuffle", kernel, dim3(1), dim3(Block), Block * sizeof(float), stream, static_cast<const float*>(partials), out,
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
Plans lesson_plans<8, this_backend>() {
  return {{.lesson = 8,
           .slug = "warp_shuffle",
           .title = "Warp shuffles for the last levels",
           .backend = this_backend,
           .scratch_bytes = scratch_bytes,
           .reduce = reduce<false, NoTrace>,
           .depth = depth,
           .reduce_traced = reduce<false, RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source},
          {.lesson = 8,
           .slug = "warp_shuffle",
           .title = "Warp shuffles for the last levels",
           .variant = "butterfly",
           .backend = this_backend,
           .scratch_bytes = scratch_bytes,
           .reduce = reduce<true, NoTrace>,
           .depth = depth,
           .reduce_traced = reduce<true, RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
