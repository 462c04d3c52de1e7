#pragma once
// The warp-level tail of lessons 05 and 06, in a header of its own so lesson 06 can reuse it
// without also compiling lesson 05's kernel.
#include "common/cuda_compat.h"
#include "common/trace/recorder.h"

namespace rl {
inline namespace RL_BACKEND_NS {

// The last levels, done by warp 0 alone. No __syncthreads is needed (one warp), but lanes are NOT
// in lock-step since Volta: each level reads a neighbour's slot into a register, waits with
// __syncwarp until every lane has read, writes, and waits again until every lane has written.
// Without those two waits a fast lane may read a slot a slow lane has not written yet (see README).
// `level` is the tree level of the first step, for the trace.
template <class Trace = NoTrace>
__device__ __forceinline__ void warp_reduce_in_shared(float* partial, unsigned tid, unsigned block, unsigned level) {
  float sum = partial[tid];
#pragma unroll
  for (unsigned stride = 32; stride > 0; stride /= 2) {
    if (tid + stride < block) sum += partial[tid + stride];  // never past the block's slots (block 32!)
    __syncwarp();                                             // all reads of this level before any write
    partial[tid] = sum;
    __syncwarp();                                             // all writes before the next level reads
    if (tid < stride && stride < block) Trace::combine(level++, shared_slot(tid), shared_slot(tid + stride), sum);
  }
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
