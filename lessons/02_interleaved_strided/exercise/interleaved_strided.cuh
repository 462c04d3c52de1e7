// Exercise 02: lesson 01's tree, worked by contiguous threads. Do what the TODO(student) below
// asks; grade it with `bash lessons/grade.sh 02`, and when stuck ask
// `build-student/bin/02_interleaved_strided --hint 1` (then 2, 3). The solution is
// ../interleaved_strided.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 02: contiguous threads do the work (Harris's "reduction #2"); the addresses they touch
// are strided.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void interleaved_strided(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    // TODO(student): one level of lesson 01's tree: the same pairs (slots `stride` apart, each
    //   pair's sum in its lower slot), but handed to the threads in order, the level's first pair
    //   to thread 0, its second to thread 1, and so on, so that the threads that work are
    //   contiguous and whole warps are either busy or idle. Threads past the level's last pair add
    //   nothing. Graded (`bash lessons/grade.sh 02`): the total for n = 0, 1, 31, 32, 33, 255, 256,
    //   257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats
    //   within float rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and 1024
    //   threads at n = block + 1, 1000 and 67 * block - 3. On the simulator the cases up to 2^16+1
    //   run again with each block's threads in reverse and in shuffled order: a result that needs
    //   lane order fails. Then, on the simulator, the grade reads a trace of your kernel (n = 2048,
    //   256-thread blocks): a tree, and no warp with idle lanes beside working ones where 32 or
    //   more threads work.
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
