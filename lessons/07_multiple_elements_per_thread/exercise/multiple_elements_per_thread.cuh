// Exercise 07: many inputs per thread, a grid sized to the GPU. Do what the TODO(student) below
// asks; grade it with `bash lessons/grade.sh 07`, and when stuck ask
// `build-student/bin/07_multiple_elements_per_thread --hint 1` (then 2, 3). The solution is
// ../multiple_elements_per_thread.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 07: a grid that fills the GPU once, each thread summing many elements before the tree
// (Harris's "reduction #7", algorithm cascading).
#include <cstdint>

#include "common/device/traced.h"
#include "common/device/tree_in_shared.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    multiple_elements_per_thread(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  // TODO(student): the grid no longer grows with n: plan.cu launches about as many blocks as the
  //   GPU holds at once (gridDim.x blocks of Block threads), then this kernel again as one block
  //   over their partials. So before the tree each thread gathers into `sum`, in a register, its
  //   share of the whole of in[0, n): every input in exactly one thread's share, however many times
  //   larger than the grid n is, and at every step the threads of a warp read consecutive floats
  //   (coalesced), as lesson 04's two loads did. Inputs at or past n are not read. n may pass 2^32.
  //   Graded (`bash lessons/grade.sh 07`): the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000,
  //   2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within float
  //   rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and 1024 threads at n =
  //   block + 1, 1000 and 67 * block - 3. On the simulator the cases up to 2^16+1 run again with
  //   each block's threads in reverse and in shuffled order: a result that needs lane order fails.
  //   Then, on the simulator, the grade reads a trace of your kernel (n = 2048, 256-thread blocks):
  //   whole warps, no bank conflict and no __syncthreads after a level where 32 threads or fewer
  //   work.
  Float<Trace> sum = 0.0f;  // this thread's share of the input
  (void)in, (void)n;
  partial[tid] = sum;
  __syncthreads();
  tree_in_shared<Block, Trace>(partial, tid);  // lesson 06's tree, lesson 05's warp tail
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
