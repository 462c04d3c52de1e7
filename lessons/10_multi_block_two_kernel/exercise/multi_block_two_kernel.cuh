// Exercise 10: the finishing kernel in one warp. Do what the TODO(student) below asks; grade it
// with `bash lessons/grade.sh 10`, and when stuck ask `build-student/bin/10_multi_block_two_kernel
// --hint 1` (then 2, 3). The solution is ../multi_block_two_kernel.cuh. Name a value in a register
// `Float<Trace>` and shared memory `Shared<Trace>`, as the code around does
// (common/device/traced.h): the same code then also records --trace.
#pragma once
// Lesson 10: the multi-block reduction as two kernels with distinct jobs (plan.cu also has the
// host and one-warp finishes): what does the second step cost, and where should it run?
#include <cstdint>

#include "common/device/block_sum.cuh"
#include "common/device/grid_stride_sum.cuh"
#include "common/device/traced.h"

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
  // TODO(student): kernel 2 of the warp_finish variant: plan.cu launches it as one block of one
  //   warp, 32 threads, over the `count` partials kernel 1 left, one per block of kernel 1: from 1
  //   to a few thousand, so fewer or more than the warp has lanes. Lane 0 must end with their sum
  //   in `sum`, each partial counted once, with no shared memory and no __syncthreads: what a
  //   single warp needs is in lessons 07 and 08 (common/device/). Graded (`bash lessons/grade.sh
  //   10`), every variant (host_finish, in plan.cu, uses kernel 1 only): the total for n = 0, 1,
  //   31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread
  //   blocks, random floats within float rounding and integer data to the bit; then blocks of 32,
  //   64, 128, 512 and 1024 threads at n = block + 1, 1000 and 67 * block - 3. On the simulator the
  //   cases up to 2^16+1 run again with each block's threads in reverse and in shuffled order: a
  //   result that needs lane order fails. Then, on the simulator, the grade reads a trace of this
  //   kernel (its launch after kernel 1's, n = 2048, 256-thread blocks in kernel 1): five levels
  //   of shuffles, and no __syncthreads.
  (void)partials, (void)count;
  if (threadIdx.x == 0) out[0] = sum;
}

RL_NAMESPACE_END
