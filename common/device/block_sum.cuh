#pragma once
// Lesson 09's idea, for the lessons after it (10, 11): a block's sum in two stages of warp
// shuffles.
#include "common/device/traced.h"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

// Returns the block's total in thread 0 (other threads get partial values). Every thread of the
// block must call it. Calling it twice in a kernel needs a __syncthreads() between the calls: the
// second call's writes to warp_totals must not overtake the first call's reads.
template <unsigned Block, class Trace = NoTrace>
__device__ __forceinline__ Float<Trace> block_sum(Float<Trace> v,
                                                  unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  static_assert(Block >= 32 && Block <= 1024 && Block % 32 == 0,
                "whole warps, at most 1024 threads");
  v = warp_sum<Trace>(v);  // stage 1: every warp at once, in registers
  if constexpr (Block == 32) {
    return v;
  } else {
    // one word per warp: 32x fewer shared accesses than a tree
    __shared__ float totals[Block / 32];
    Shared<Trace> warp_totals = totals;
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    if (lane == 0) warp_totals[warp] = v;
    __syncthreads();  // the only block-wide barrier: every warp's total is written
    if (warp == 0) {  // stage 2: the first warp
      v = lane < Block / 32 ? Float<Trace>(warp_totals[lane]) : 0.0f;
      v = warp_sum<Trace>(v);
    }
    return v;
  }
}

RL_NAMESPACE_END
