#pragma once
// Lesson 01: the naive shared-memory tree (Harris's "reduction #1"). Each block sums blockDim.x
// consecutive inputs into out[blockIdx.x]; plan.cu runs it again over those partials.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// Bitmask: the `bitmask` variant. Trace: NoTrace (timed) or RecordTrace (--trace), see traced.h.
template <bool Bitmask, class Trace = NoTrace>
__global__ void interleaved_divergent(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();  // one float per thread, sized by the launch
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;  // 64-bit: n may pass 2^32
  // threads past the end load the identity, so the tree needs no mask
  partial[tid] = i < n ? in[i] : 0.0f;
  // every load lands before any thread reads a neighbour's slot
  __syncthreads();

  // The mistake: right, but no tree. Thread 0 adds the block's values one after another, a chain
  // of blockDim.x - 1 additions while every other thread waits.
  if (tid == 0)
    for (unsigned k = 1; k < blockDim.x; ++k) partial[0] += partial[k];
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
