// Exercise 03: lesson 03's tree for a block whose size is not a power of two. Do what the
// TODO(student) below asks; grade it with `bash lessons/grade.sh 03`, and when stuck ask
// `build-student/bin/03_sequential_addressing --hint 1` (then 2, 3). The solution is
// ../sequential_addressing.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
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

  // TODO(student): the whole tree over partial[0..blockDim.x), for any blockDim.x from 1 to 1024,
  //   a power of two or not: plan.cu launches three quarters of the block (24, 48, 96, 192, 384
  //   or 768 threads). partial[0] must end with the block's sum, no value lost at any level. As in
  //   lesson 03's loop above: each level reads what the level before it wrote, every thread of the
  //   block reaches every barrier, the threads that add are contiguous from thread 0 and a warp's
  //   words are consecutive. Graded (`bash lessons/grade.sh 03`): the totals of both plans for
  //   n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with
  //   256-thread blocks, random floats within float rounding and integer data to the bit; then
  //   blocks of 32, 64, 128, 512 and 1024 at n = block + 1, 1000 and 67 * block - 3; on the
  //   simulator again in reverse and shuffled thread order. Then, on the simulator, the grade
  //   reads a trace of this kernel (n = 2048, 192 threads): a tree (ceil(log2(192)) = 8 levels of
  //   additions, one more at most), whole warps wherever 32 or more threads add, no bank conflict.
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
