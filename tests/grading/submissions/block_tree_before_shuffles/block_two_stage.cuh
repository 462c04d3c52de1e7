#pragma once
// Lesson 09: no shared-memory tree at all: every warp reduces with shuffles, lane 0 of each writes
// one word, and the first warp reduces those words.
#include <cstdint>

#include "common/device/grid_stride_sum.cuh"
#include "common/device/traced.h"
#include "common/device/tree_in_shared.cuh"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace, bool Everyone = false>  // the mistake in both
__global__ void __launch_bounds__(Block)
    block_two_stage(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Float<Trace> sum = grid_stride_sum<Block, Trace>(in, n);  // lesson 07
  // The mistake: lesson 08's block, right, but its tree still runs in shared memory with a block
  // barrier a level until 64 values are left; only the last warp shuffles.
  __shared__ float values[Block];
  Shared<Trace> partial = values;
  partial[threadIdx.x] = sum;
  __syncthreads();
  shared_levels_down_to_64<Block, Trace>(partial, threadIdx.x);
  if (threadIdx.x < 32) {
    sum = partial[threadIdx.x];
    if constexpr (Block >= 64) sum += partial[threadIdx.x + 32];
    sum = warp_sum<Trace>(sum);
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

RL_NAMESPACE_END
