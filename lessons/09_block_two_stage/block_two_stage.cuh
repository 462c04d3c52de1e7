#pragma once
// Lesson 09: no shared-memory tree at all: every warp reduces with shuffles, lane 0 of each writes
// one word, and the first warp reduces those words.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "lessons/09_block_two_stage/block_sum.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

template <unsigned Block>
__global__ void __launch_bounds__(Block) block_two_stage(const float* in, float* out, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t{2 * Block} * gridDim.x;
  float sum = 0.0f;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * Block) + threadIdx.x; i < n; i += stride) {  // lesson 07
    sum += in[i];
    if (i + Block < n) sum += in[i + Block];
  }
  // THE IDEA: log2(Block) shared-memory levels with a barrier each become two rounds of five
  // shuffles and one barrier (block_sum.cuh).
  sum = block_sum<Block>(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

struct BlockTwoStage : GridStridePlan<BlockTwoStage, 2, 0> {  // 0: no dynamic shared memory
  static constexpr int lesson = 9;
  static constexpr const char* slug = "block_two_stage";
  static constexpr const char* title = "Two-stage block reduce with shuffles";
  template <unsigned Block>
  static constexpr GridKernel kernel = block_two_stage<Block>;
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
