// Lesson 11's launch plan: one launch, a persistent grid of 1024-thread blocks.
// main.cpp -> rl::lesson_main<11> -> lesson_plans<11, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/11_single_pass/single_pass.cuh"

RL_NAMESPACE_BEGIN
namespace {

constexpr unsigned items_per_thread = 16;  // below this many a block isn't worth launching
constexpr unsigned preferred_block = 1024;  // fewer, wider blocks: fewer partials to finish

unsigned grid_for(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return persistent_grid(n, block, items_per_thread, shape);
}

// Four float4 loads in flight, interleaved over the grid, 1024 threads a block: the fastest of the
// shapes measured on the H100 (README.md); the template stays so the exercise can try others.
//   single_pass<Block><<<grid, Block, 0, stream>>>(in, out, n, partials);
template <class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& shape,
            void* stream) {
  with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("single_pass", single_pass<Block, 4, QuadOrder::interleaved, Trace>, dim3(grid_for(n, Block, shape)),
           dim3(Block), 0, stream, in, out, n, static_cast<float*>(scratch));
  });
}

// The contrast: the total zeroed, then one atomicAdd per block.
//   cudaMemsetAsync(out, 0, sizeof(float), stream);
//   single_pass_atomic<Block><<<grid, Block, 0, stream>>>(in, out, n);
template <class Trace>
void reduce_atomic(const float* in, float* out, std::uint64_t n, unsigned block, void*, const DeviceShape& shape,
                   void* stream) {
  zero_async(out, sizeof(float), stream);  // the atomics add into it
  with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    launch("single_pass_atomic", single_pass_atomic<Block, Trace>, dim3(grid_for(n, Block, shape)), dim3(Block), 0,
           stream, in, out, n);
  });
}

std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  return grid_for(n, block, shape) * sizeof(float);
}

// A thread's run of quads (each quad two levels), head and tail, two block sums and the finish's run.
std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t g = grid_for(n, block, shape);
  return ceil_div(n, 4 * g * block) + 4 + 2 * summation_depth(block, 0) + ceil_div(g, block);
}

std::uint64_t depth_atomic(std::uint64_t n, unsigned block, const DeviceShape& shape) {
  const std::uint64_t g = grid_for(n, block, shape);
  return ceil_div(n, 4 * g * block) + 4 + summation_depth(block, 0) + g;
}

}  // namespace
RL_NAMESPACE_END

namespace rl {

template <>
Plans lesson_plans<11, this_backend>() {
  return {{.lesson = 11,
           .slug = "single_pass",
           .title = "Single pass: vector loads, last block finishes",
           .backend = this_backend,
           .preferred_block = preferred_block,
           .scratch_bytes = scratch_bytes,
           .reduce = reduce<NoTrace>,
           .depth = depth,
           .reduce_traced = reduce<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source},
          {.lesson = 11,
           .slug = "single_pass",
           .title = "Single pass: vector loads, last block finishes",
           .variant = "atomic_finish",
           .backend = this_backend,
           .preferred_block = preferred_block,
           .scratch_bytes = scratch_bytes,
           .reduce = reduce_atomic<NoTrace>,
           .depth = depth_atomic,
           .reduce_traced = reduce_atomic<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
