#pragma once
// Lesson 04: add two inputs while loading (Harris's "reduction #4").
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// Halves: the `halves` variant (the second input from the grid's other half, below). Trace: NoTrace
// (timed) or RecordTrace (--trace), see traced.h.
template <class Trace = NoTrace, bool Halves = false>
__global__ void first_add_during_load(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  if constexpr (Halves) {
    // The mistake: lesson 04's own loads, one block apart, in the halves variant: right on this
    // grid too, but block 0 never reads the grid's other half.
    const std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * blockDim.x) + tid;
    Float<Trace> sum = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
    partial[tid] = sum;
  } else {
    // THE IDEA: each block covers 2 * blockDim.x inputs and each thread adds its two while
    // loading. In lesson 03 half the threads went idle at the very first level; now that level is
    // done in registers on the way in, and the grid needs half as many blocks.
    const std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * blockDim.x) + tid;
    Float<Trace> sum = i < n ? in[i] : 0.0f;
    // the second load is one block further: coalesced too
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
    partial[tid] = sum;
  }
  __syncthreads();

  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {  // lesson 03's tree
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
