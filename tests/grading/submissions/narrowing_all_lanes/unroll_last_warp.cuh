#pragma once
// Lesson 05: unroll the last six levels, which a single warp does (Harris's "reduction #5"), the
// way that is correct on Volta and later: with __syncwarp between the reads and the writes.
#include <cstdint>

#include "common/device/add_while_loading.cuh"
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace, bool Narrowing = false>
__global__ void unroll_last_warp(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * blockDim.x);
  partial[tid] = add_while_loading<Trace>(in, n, first, blockDim.x);  // lesson 04
  __syncthreads();

  // THE IDEA: the block-wide loop stops at 64 values; below that only warp 0 works, and a warp
  // needs no block barrier (and no loop bookkeeping): six levels unrolled with warp-level syncs.
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (!Narrowing && tid < 32) {  // the narrowing variant's tail follows this one
    // Lanes are NOT in lock-step since Volta: each level reads a neighbour's slot into a register,
    // waits with __syncwarp until every lane has read, writes, and waits again until every lane has
    // written. Without those two waits a fast lane may read a slot a slow lane has not written yet.
    Float<Trace> sum = partial[tid];
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      // never past the block's slots (block 32!)
      if (tid + stride < blockDim.x) sum += partial[tid + stride];
      // all reads of this level before any write
      __syncwarp();
      partial[tid] = sum;
      // all writes before the next level reads
      __syncwarp();
    }
  }
  if constexpr (Narrowing) {
    // The narrowing variant (exercise 05): at each level only the lanes whose sums are still
    // needed work, and each wait names only the lanes it must.
    // The mistake: the narrowing variant as the tail above, all 32 lanes at every level with two
    // waits a level: right and race-free, but the lanes whose sums nobody reads still work.
    if (tid < 32) {
      Float<Trace> sum = partial[tid];
#pragma unroll
      for (unsigned stride = 32; stride > 0; stride /= 2) {
        if (tid + stride < blockDim.x) sum += partial[tid + stride];
        __syncwarp();
        partial[tid] = sum;
        __syncwarp();
      }
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
