#pragma once
// Lesson 02: contiguous threads do the work (Harris's "reduction #2"); the addresses they touch
// are strided.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void interleaved_strided(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // The mistake: lesson 01's tree, right but divergent: the adders are spread over every warp.
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
