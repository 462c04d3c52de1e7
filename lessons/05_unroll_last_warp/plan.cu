// Lesson 05's launch plan: the grid, the block, the shared memory, and how often the kernel runs.
// main.cpp -> rl::lesson_main<5> -> lesson_plans<5, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/05_unroll_last_warp/unroll_last_warp.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces 2 * `block` inputs to one partial, so the kernel runs again over the partials until
// one block is left:
//   unroll_last_warp<<<ceil(n / (2 * block)), block, block * sizeof(float), stream>>>(in, partials, n);
//   unroll_last_warp<<<ceil(partials / (2 * block)), block, ...>>>(partials, partials2, partials); ... until one block writes out
template <class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape&,
            void* stream) {
  for_each_tree_pass(in, out, n, 2ull * block, scratch, [&](const TreePass& pass) {
    launch("unroll_last_warp", unroll_last_warp<Trace>, dim3(pass.blocks), dim3(block), block * sizeof(float), stream, pass.in,
           pass.out, pass.count);
  });
}

}  // namespace
RL_NAMESPACE_END

namespace rl {

template <>
Plans lesson_plans<5, this_backend>() {
  return {{.lesson = 5,
           .slug = "unroll_last_warp",
           .title = "Unroll the last warp (__syncwarp-safe)",
           .backend = this_backend,
           .scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_scratch_bytes(n, 2ull * block); },
           .reduce = reduce<NoTrace>,
           .depth = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_depth(n, 2ull * block); },
           .reduce_traced = reduce<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
