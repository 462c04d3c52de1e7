#pragma once
// Lesson 05: unroll the last six levels, which a single warp does (Harris's "reduction #5"), the
// way that is correct on Volta and later: with __syncwarp between the reads and the writes.
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

  // The mistake: lesson 04's loop, right, but the whole block still waits at a barrier after
  // each of the last six levels, where only warp 0 works.
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
