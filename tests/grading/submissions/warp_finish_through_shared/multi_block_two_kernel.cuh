#pragma once
// Lesson 10: the multi-block reduction as two kernels with distinct jobs (plan.cu also has the
// variants in which the host finishes, or one warp): what does the second step cost, and where
// should it run?
#include <cstdint>

#include "common/device/block_sum.cuh"
#include "common/device/grid_stride_sum.cuh"
#include "common/device/traced.h"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

// Kernel 1: a persistent grid, each block leaving one partial (lessons 07 and 09).
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    block_partials(In<Trace> in, Out<Trace> partials, std::uint64_t n) {
  const Float<Trace> sum = block_sum<Block, Trace>(grid_stride_sum<Block, Trace>(in, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// Kernel 2: one block of the widest size sums the partials (a few thousand at most). It is tiny:
// what it costs is the launch itself, which this lesson measures.
inline constexpr unsigned finish_block = 1024;
template <class Trace = NoTrace>
__global__ void __launch_bounds__(finish_block)
    sum_partials(In<Trace> partials, Out<Trace> out, std::uint64_t count) {
  Float<Trace> sum = 0.0f;
  for (std::uint64_t i = threadIdx.x; i < count; i += finish_block) sum += partials[i];
  sum = block_sum<finish_block, Trace>(sum);
  if (threadIdx.x == 0) out[0] = sum;
}

// The warp_finish variant (exercise 10): kernel 2 as one warp, which needs no shared memory and
// no barrier; each lane adds more partials before the shuffles.
template <class Trace = NoTrace>
__global__ void __launch_bounds__(32)
    sum_partials_in_a_warp(In<Trace> partials, Out<Trace> out, std::uint64_t count) {
  Float<Trace> sum = 0.0f;
  // The mistake: the warp's 32 sums combined by lesson 03's tree in shared memory, a
  // __syncthreads a level: right, but a single warp needs no barrier.
  for (std::uint64_t i = threadIdx.x; i < count; i += 32) sum += partials[i];
  __shared__ float slots[32];
  Shared<Trace> partial = slots;
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned stride = 16; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  sum = partial[0];
  if (threadIdx.x == 0) out[0] = sum;
}

RL_NAMESPACE_END
