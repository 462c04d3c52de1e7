// Lesson 03's launch plan: the grid, the block, the shared memory, and how often the kernel runs.
// main.cpp -> rl::lesson_main<3> -> lesson_plans<3, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/03_sequential_addressing/sequential_addressing.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Each block reduces `block` inputs to one partial, so the kernel runs again over the partials until
// one block is left:
//   sequential_addressing<<<ceil(n / block), block, block * sizeof(float), stream>>>(in, partials, n);
//   sequential_addressing<<<ceil(partials / block), block, ...>>>(partials, partials2, partials); ... until one block writes out
template <class Trace>
void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape&,
            void* stream) {
  for_each_tree_pass(in, out, n, block, scratch, [&](const TreePass& pass) {
    launch("sequential_addressing", sequential_addressing<Trace>, dim3(pass.blocks), dim3(block), block * sizeof(float), stream, pass.in,
           pass.out, pass.count);
  });
}

}  // namespace
RL_NAMESPACE_END

namespace rl {

template <>
Plans lesson_plans<3, this_backend>() {
  return {{.lesson = 3,
           .slug = "sequential_addressing",
           .title = "Sequential addressing",
           .backend = this_backend,
           .scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_scratch_bytes(n, block); },
           .reduce = reduce<NoTrace>,
           .depth = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_depth(n, block); },
           .reduce_traced = reduce<RecordTrace>,
           .attach_trace = attach_trace_buffer,
           .source = kernel_source}};
}

}  // namespace rl
