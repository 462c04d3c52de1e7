#pragma once
// A block's sum in two stages of warp shuffles: lesson 09's idea, written once and reused by the
// multi-block lessons that follow.
#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "lessons/08_warp_shuffle/warp_sum.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

// Returns the block's total in thread 0 (other threads get partial values). Every thread of the
// block must call it. Calling it twice in a kernel needs a __syncthreads() between the calls: the
// second call's writes to warp_totals must not overtake the first call's reads. `level`: the trace's
// first level; the call uses 12 (5 shuffles, a store, a load, 5 shuffles).
template <unsigned Block, class Trace = NoTrace>
__device__ __forceinline__ float block_sum(float v, unsigned level = 0) {
  static_assert(Block >= 32 && Block <= 1024 && Block % 32 == 0, "whole warps, at most 1024 threads");
  v = warp_sum<Trace>(v, level);  // stage 1: every warp at once, in registers
  if constexpr (Block == 32) {
    return v;
  } else {
    __shared__ float warp_totals[Block / 32];  // one word per warp: 32x fewer shared accesses than a tree
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    if (lane == 0) {
      warp_totals[warp] = v;
      Trace::store(level + 5, shared_slot(warp), register_of(threadIdx.x), v);
    }
    __syncthreads();  // the only block-wide barrier: every warp's total is written
    if (warp == 0) {  // stage 2: the first warp
      v = lane < Block / 32 ? warp_totals[lane] : 0.0f;
      if (lane < Block / 32) Trace::load(level + 6, register_of(lane), shared_slot(lane), v);
      v = warp_sum<Trace>(v, level + 7);
    }
    return v;
  }
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
