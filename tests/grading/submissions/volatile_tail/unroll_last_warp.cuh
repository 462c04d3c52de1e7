#pragma once
// A broken lesson 05 for the grader's self-check: the warp tail as Harris wrote it in 2007, through
// a volatile view of shared memory and without __syncwarp.
#include <cstdint>

#include "common/device/add_while_loading.cuh"
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace, bool Narrowing = false>  // the mistake in both variants
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
  if (tid < 32) {
    // MISTAKE: Harris's 2007 warp tail. `volatile` keeps each value in shared memory, but nothing
    // makes lane 0 wait for lane 16 to add into v[16] before it reads it: since Volta the lanes of
    // a warp are not in lock-step, and this code needs __syncwarp() between every read and write.
    VolatileShared<Trace> v = partial;
    v[tid] = v[tid] + v[tid + 32];
    v[tid] = v[tid] + v[tid + 16];
    v[tid] = v[tid] + v[tid + 8];
    v[tid] = v[tid] + v[tid + 4];
    v[tid] = v[tid] + v[tid + 2];
    v[tid] = v[tid] + v[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
