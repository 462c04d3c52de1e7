// Exercise 05: the last warp's levels, without block barriers and without races. Do what the
// TODO(student) below asks; grade it with `bash lessons/grade.sh 05`, and when stuck ask
// `build-student/bin/05_unroll_last_warp --hint 1` (then 2, 3). The solution is
// ../unroll_last_warp.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 05: unroll the last six levels, which a single warp does (Harris's "reduction #5"), the
// way that is correct on Volta and later: with __syncwarp between the reads and the writes.
#include <cstdint>

#include "common/device/add_while_loading.cuh"
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void unroll_last_warp(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * blockDim.x);
  partial[tid] = add_while_loading<Trace>(in, n, first, blockDim.x);  // lesson 04
  __syncthreads();

  // THE IDEA: the block-wide loop stops at 64 values; below that only warp 0 works, and a warp
  // needs no block barrier (and no loop bookkeeping): six levels unrolled with warp-level syncs.
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  // TODO(student): the last six levels, by warp 0 (threads 0-31) alone. The loop above leaves the
  //   block's sum spread over partial[0..64) (over partial[0..32) in a 32-thread block); finish the
  //   tree so that partial[0] holds it, with no block-wide barrier: the warp synchronises only
  //   itself. Since Volta the lanes of a warp are not in lock-step, so the result must not depend
  //   on the order in which they run. Never read a slot at or past blockDim.x. Graded (`bash
  //   lessons/grade.sh 05`): the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and
  //   2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within float rounding and
  //   integer data to the bit; then blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1,
  //   1000 and 67 * block - 3. On the simulator the cases up to 2^16+1 run again with each block's
  //   threads in reverse and in shuffled order: a result that needs lane order fails. Then, on the
  //   simulator, the grade reads a trace of your kernel (n = 2048, 256-thread blocks): lesson 03's
  //   tree, whole warps and no bank conflict, and no __syncthreads after a level where 32 threads
  //   or fewer work.
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
