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

  // THE IDEA: halve the stride instead of doubling it. At every level the active threads
  // 0..stride-1 read partial[tid] and partial[tid + stride]: 32 consecutive words per warp, one per
  // bank, so no bank conflict; and the active threads stay contiguous, so whole warps retire.
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// The `non_power_of_two` variant: the same tree for a block of any size, 192 or 96 threads as well
// as 256 (plan.cu launches three quarters of the block). Halving 192 gives 96, 48, 24, 12, 6, 3 and
// then 1: at the odd count a value has no partner, and the loop above would lose it.
template <class Trace = NoTrace>
__global__ void sequential_addressing_any_block(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // The first level folds the slots from the largest power of two below the block onto the slots
  // under it: only as many threads as there are slots above it add, contiguous from thread 0, a
  // whole warp wherever the block is a multiple of 32. From there on every level halves a power of
  // two, as in lesson 03's loop.
  // The mistake: each level rounds an odd count's half up, so no value is lost, but the threads
  // that add are no longer whole warps: 192 values give 96 adders, then 48 (a warp half idle).
  for (unsigned live = blockDim.x; live > 1; live = (live + 1) / 2) {
    const unsigned half = (live + 1) / 2;
    if (tid < live - half) partial[tid] += partial[tid + half];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
