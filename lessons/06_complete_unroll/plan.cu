// Lesson 06's launch plan: the grid, the block, the shared memory, and how often the kernel runs.
// main.cpp -> rl::lesson_main<6> -> lesson_plans<6, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/block_dispatch.h"
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/06_complete_unroll/complete_unroll.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Lesson 04's passes, with the kernel compiled for the run's block size:
//   complete_unroll<Block><<<ceil(n / (2 * Block)), Block, Block * sizeof(float), stream>>>(in, partials, n);
//   ... again over the partials until one block writes out
template <class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape&,
            void* stream) {
  with_block_size(block, [&]<unsigned Block>(BlockSize<Block>) {
    for_each_tree_pass(in, out, n, 2ull * Block, scratch, [&](const TreePass& pass) {
      launch("complete_unroll", complete_unroll<Block, Trace>, dim3(pass.blocks), dim3(Block), Block * sizeof(float),
             stream, pass.in, pass.out, pass.count);
    });
  });
}

}  // namespace
RL_NAMESPACE_END

namespace rl {

template <>
Plans lesson_plans<6, this_backend>() {
  return {{.lesson = 6,
           .slug = "complete_unroll",
           .title = "Complete unroll (block size as a template)",
           .backend = this_backend,
           .scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_scratch_bytes(n, 2ull * block); },
           .reduce = reduce<NoTrace>,
           .depth = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_depth(n, 2ull * block); },
           .reduce_traced = reduce<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
