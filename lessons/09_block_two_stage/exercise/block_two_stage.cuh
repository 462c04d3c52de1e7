// Exercise 09: write the block's sum as two stages of warp shuffles with one word per warp between.
// The solution is ../block_two_stage.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 09: no shared-memory tree at all: every warp reduces with shuffles, lane 0 of each writes
// one word, and the first warp reduces those words.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "common/trace/recorder.h"
#include "lessons/07_multiple_elements_per_thread/grid_stride_sum.cuh"
#include "lessons/09_block_two_stage/block_sum.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) block_two_stage(const float* in, float* out, std::uint64_t n) {
  float sum = grid_stride_sum<Block, Trace>(in, n);  // lesson 07
  // THE IDEA: log2(Block) shared-memory levels with a barrier each become two rounds of five
  // shuffles and one barrier (block_sum.cuh).
  // TODO(student): stage 1: every warp sums its lanes with shuffles (lesson 08's warp_sum<Trace>(sum, 1));
  //   lane 0 of each warp writes its total into a __shared__ float[Block / 32] and records
  //   Trace::store(6, shared_slot(warp), register_of(threadIdx.x), sum); one __syncthreads(); stage 2:
  //   warp 0 loads those words (0.0f past the last; Trace::load(7, register_of(lane), shared_slot(lane),
  //   sum)) and sums them with shuffles again (warp_sum<Trace>(sum, 8)): thread 0 has the block's sum.
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

RL_NAMESPACE_END
