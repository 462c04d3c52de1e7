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
    // The halves variant (exercise 04): the same grid, each thread's two inputs the grid's reach
    // apart, so that the grid's first loads cover one half of the input and its second loads the
    // other.
    const std::uint64_t g = std::uint64_t{blockIdx.x} * blockDim.x + tid;  // the grid's thread
    const std::uint64_t reach = std::uint64_t{gridDim.x} * blockDim.x;     // threads in the grid
    Float<Trace> sum = g < n ? in[g] : 0.0f;
    if (g + reach < n) sum += in[g + reach];
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
