#pragma once
// Lesson 05's idea, for the lessons after it: the last six levels of a shared-memory tree, done by
// warp 0 alone with __syncwarp in place of __syncthreads.
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// Leaves the sum of partial[0..min(64, block)) in partial[0]; called by the 32 threads of warp 0.
// Lanes are not in lock-step since Volta: each level reads into a register, waits until every lane
// has read, writes, and waits until every lane has written (lessons/05_unroll_last_warp/README.md).
template <class Trace = NoTrace>
__device__ __forceinline__ void warp_tail_in_shared(Shared<Trace> partial, unsigned tid,
                                                    unsigned block,
                                                    unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  Float<Trace> sum = partial[tid];
#pragma unroll
  for (unsigned stride = 32; stride > 0; stride /= 2) {
    // never past the block's slots (block 32!)
    if (tid + stride < block) sum += partial[tid + stride];
    // all reads of this level before any write
    __syncwarp();
    partial[tid] = sum;
    // all writes before the next level reads
    __syncwarp();
  }
}

RL_NAMESPACE_END
