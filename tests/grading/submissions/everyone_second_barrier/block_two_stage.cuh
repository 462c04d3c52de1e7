#pragma once
// Lesson 09: no shared-memory tree at all: every warp reduces with shuffles, lane 0 of each writes
// one word, and the first warp reduces those words.
#include <cstdint>

#include "common/device/grid_stride_sum.cuh"
#include "common/device/traced.h"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

// Everyone: the `everyone` variant (every thread ends with the block's total, below). Trace:
// NoTrace (timed) or RecordTrace (--trace), see traced.h.
template <unsigned Block, class Trace = NoTrace, bool Everyone = false>
__global__ void __launch_bounds__(Block)
    block_two_stage(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Float<Trace> sum = grid_stride_sum<Block, Trace>(in, n);  // lesson 07
  if constexpr (!Everyone) {
    // THE IDEA: log2(Block) shared-memory levels with a barrier each become two rounds of five
    // shuffles and one barrier.
    sum = warp_sum<Trace>(sum);  // stage 1: every warp at once, in registers (lesson 08)
    if constexpr (Block > 32) {
      // one word per warp: 32x fewer shared accesses than a tree
      __shared__ float totals[Block / 32];
      Shared<Trace> warp_totals = totals;
      const unsigned lane = threadIdx.x % 32;
      const unsigned warp = threadIdx.x / 32;
      if (lane == 0) warp_totals[warp] = sum;
      __syncthreads();  // the only block-wide barrier: every warp's total is written
      if (warp == 0) {  // stage 2: the first warp sums the warps' totals
        sum = lane < Block / 32 ? Float<Trace>(warp_totals[lane]) : 0.0f;
        sum = warp_sum<Trace>(sum);
      }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
  } else {
    // The mistake: the own two stages, then thread 0's total handed to every thread through
    // shared memory: right, but a second block-wide barrier.
    sum = warp_sum<Trace>(sum);
    if constexpr (Block > 32) {
      __shared__ float totals[Block / 32];
      Shared<Trace> warp_totals = totals;
      const unsigned lane = threadIdx.x % 32;
      const unsigned warp = threadIdx.x / 32;
      if (lane == 0) warp_totals[warp] = sum;
      __syncthreads();
      if (warp == 0) {
        sum = lane < Block / 32 ? Float<Trace>(warp_totals[lane]) : 0.0f;
        sum = warp_sum<Trace>(sum);
      }
    }
    __shared__ float total[1];
    Shared<Trace> block_total = total;
    if (threadIdx.x == 0) block_total[0] = sum;
    __syncthreads();  // the second barrier
    sum = block_total[0];
    // the last thread stores: a block whose total reached thread 0 alone fails
    if (threadIdx.x == Block - 1) out[blockIdx.x] = sum;
  }
}

RL_NAMESPACE_END
