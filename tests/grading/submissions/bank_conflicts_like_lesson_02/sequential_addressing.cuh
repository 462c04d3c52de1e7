#pragma once
// Lesson 03: reverse the loop so active threads read consecutive words (Harris's "reduction #3").
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void sequential_addressing(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // The mistake: lesson 02's tree, right and without divergence, but lane tid reads word
  // 2 * stride * tid: 2-way bank conflicts at the first level, 4-way at the next, ...
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < blockDim.x) partial[index] += partial[index + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
