#pragma once
// Lesson 02: contiguous threads do the work (Harris's "reduction #2"); the addresses they touch
// are strided.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// Where the tree's slot k lives in shared memory. The lesson keeps slot k in word k. Padded (the
// `padded` variant) places the slots so that the strided accesses below no longer share banks,
// with the same pairs added by the same threads; plan.cu sizes shared memory from it.
template <bool Padded>
__host__ __device__ constexpr unsigned slot(unsigned k) {
  return Padded ? k + k / 32 : k;  // a spare word after every 32: slot 32 starts in bank 1
}

// Padded: the `padded` variant. Trace: NoTrace (timed) or RecordTrace (--trace), see traced.h.
template <bool Padded, class Trace = NoTrace>
__global__ void interleaved_strided(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[slot<Padded>(tid)] = i < n ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    // The mistake: lesson 01's tree, right but divergent: the adders are spread over every warp.
    if (tid % (2 * stride) == 0) partial[slot<Padded>(tid)] += partial[slot<Padded>(tid + stride)];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[slot<Padded>(0)];
}

RL_NAMESPACE_END
