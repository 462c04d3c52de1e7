// Exercise 03: a tree without divergence or bank conflicts. Do what the TODO(student) below asks;
// grade it with `bash lessons/grade.sh 03`, and when stuck ask
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

  // TODO(student): the whole tree over partial[0..blockDim.x), arranged so that at every level the
  //   threads that add are contiguous from thread 0 (as in lesson 02) AND the words a warp reads
  //   are consecutive, one per bank (lesson 02's bank conflicts gone). partial[0] must end with the
  //   block's sum. Each level reads what the level before it wrote, and every thread of the block
  //   reaches every barrier. blockDim.x is a power of two from 32 to 1024. Graded (`bash
  //   lessons/grade.sh 03`): the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and
  //   2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within float rounding and
  //   integer data to the bit; then blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1,
  //   1000 and 67 * block - 3. On the simulator the cases up to 2^16+1 run again with each block's
  //   threads in reverse and in shuffled order: a result that needs lane order fails. Then, on the
  //   simulator, the grade reads a trace of your kernel (n = 2048, 256-thread blocks): a tree,
  //   whole warps, and no bank conflict in any warp's shared-memory access.
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
