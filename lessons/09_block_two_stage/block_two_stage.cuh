#pragma once
// Lesson 09: no shared-memory tree at all: every warp reduces with shuffles, lane 0 of each writes
// one word, and the first warp reduces those words.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "common/trace/recorder.h"
#include "lessons/07_multiple_elements_per_thread/grid_stride_sum.cuh"
#include "lessons/09_block_two_stage/block_sum.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) block_two_stage(const float* in, float* out, std::uint64_t n) {
  float sum = grid_stride_sum<Block, Trace>(in, n);  // lesson 07
  // THE IDEA: log2(Block) shared-memory levels with a barrier each become two rounds of five
  // shuffles and one barrier (block_sum.cuh).
  sum = block_sum<Block, Trace>(sum, 1);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = sum;
    Trace::store(13, global_at(out + blockIdx.x), register_of(0), sum);
  }
}

struct BlockTwoStage : GridStridePlan<BlockTwoStage, 2, 0> {  // 0: no dynamic shared memory
  static constexpr int lesson = 9;
  static constexpr const char* slug = "block_two_stage";
  static constexpr const char* title = "Two-stage block reduce with shuffles";
  template <unsigned Block, class Trace>
  static constexpr GridKernel kernel = block_two_stage<Block, Trace>;
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
