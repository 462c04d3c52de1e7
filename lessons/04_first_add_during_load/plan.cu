// Lesson 04's launch plan: the grid, the block, the shared memory, and how often the kernel runs.
// main.cpp -> rl::lesson_main<4> -> lesson_plans<4, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/04_first_add_during_load/first_add_during_load.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces 2 * `block` inputs to one partial, so the kernel runs again over the partials until
// one block is left:
//   first_add_during_load<<<ceil(n / (2 * block)), block, block * sizeof(float), stream>>>(in, partials, n);
//   first_add_during_load<<<ceil(partials / (2 * block)), block, ...>>>(partials, partials2, partials); ... until one block writes out
template <class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape&,
            void* stream) {
  for_each_tree_pass(in, out, n, 2ull * block, scratch, [&](const TreePass& pass) {
    launch("first_add_during_load", first_add_during_load<Trace>, dim3(pass.blocks), dim3(block), block * sizeof(float), stream, pass.in,
           pass.out, pass.count);
  });
}

}  // namespace
RL_NAMESPACE_END

namespace rl {

template <>
Plans lesson_plans<4, this_backend>() {
  return {{.lesson = 4,
           .slug = "first_add_during_load",
           .title = "First add during load",
           .backend = this_backend,
           .scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_scratch_bytes(n, 2ull * block); },
           .reduce = reduce<NoTrace>,
           .depth = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_depth(n, 2ull * block); },
           .reduce_traced = reduce<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
