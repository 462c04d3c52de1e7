// The dropped-block plan of dropped_block.h: compiled by nvcc into the GPU suite and by g++ (through
// dropped_block_sim.cpp) into the simulator suite, as a lesson's plan.cu is.
#include "common/grid_size.h"
#include "common/launch.h"
#include "lessons/03_sequential_addressing/sequential_addressing.cuh"
#include "tests/lessons/dropped_block.h"

RL_NAMESPACE_BEGIN
namespace {

void reduce(const ReduceCall& c) {
  const unsigned block = c.block;
  float* regions[2] = {static_cast<float*>(c.scratch), static_cast<float*>(c.scratch) + ceil_div(c.n, block)};
  const float* from = c.in;
  std::uint64_t count = c.n;
  for (int k = 0;; ++k) {
    const std::uint64_t blocks = count == 0 ? 1 : ceil_div(count, block);
    float* to = blocks == 1 ? c.out : regions[k % 2];
    launch("sequential_addressing", sequential_addressing<NoTrace>, dim3(static_cast<unsigned>(blocks)), dim3(block),
           block * sizeof(float), c.stream, from, to, count);
    if (blocks == 1) return;
    from = to;
    count = k == 0 ? blocks - 1 : blocks;  // THE MISTAKE: the first pass's last partial is left out
  }
}

}  // namespace
RL_NAMESPACE_END

namespace rl::test {

template <>
Plan dropped_block_plan<this_backend>() {
  return {.lesson = 3,
          .slug = "sequential_addressing",
          .title = "Sequential addressing, one block's partial dropped",
          .variant = "dropped_block",
          .backend = this_backend,
          .scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_scratch_bytes(n, block); },
          .reduce = reduce,
          .depth = [](std::uint64_t n, unsigned block, const DeviceShape&) { return tree_depth(n, block); }};
}

}  // namespace rl::test
