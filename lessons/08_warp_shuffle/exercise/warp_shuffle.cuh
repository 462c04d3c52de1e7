// Exercise 08: the last levels through warp shuffles. Do what the TODO(student) below asks; grade
// it with `bash lessons/grade.sh 08`, and when stuck ask `build-student/bin/08_warp_shuffle --hint
// 1` (then 2, 3). The solution is ../warp_shuffle.cuh. Name a value in a register `Float<Trace>`
// and shared memory `Shared<Trace>`, as the code around does (common/device/traced.h): the same
// code then also records --trace.
#pragma once
// Lesson 08: the last levels of the tree done in registers with warp shuffles instead of shared
// memory.
#include <cstdint>

#include "common/device/grid_stride_sum.cuh"
#include "common/device/traced.h"
#include "common/device/tree_in_shared.cuh"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, bool Butterfly, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    warp_shuffle(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  partial[tid] = grid_stride_sum<Block, Trace>(in, n);  // lesson 07
  __syncthreads();
  shared_levels_down_to_64<Block, Trace>(partial, tid);  // lesson 06, down to 64 values

  // THE IDEA: warp 0 takes the last 64 values into registers (one add each) and finishes with five
  // shuffles: no shared-memory round trips, no __syncwarp, and no bank to conflict in. A shuffle
  // waits for every lane named in its mask, so nothing is read before it is written.
  if (tid < 32) {
    Float<Trace> v = partial[tid];
    if constexpr (Block >= 64) v += partial[tid + 32];
    // TODO(student): the last five levels, in registers. Each of warp 0's 32 lanes now holds one
    //   value in `v`; combine them by letting lanes read one another's registers (no shared memory,
    //   no __syncwarp), so that lane 0's `v` ends as the block's sum, which it stores below. With
    //   Butterfly (the `butterfly` variant, graded as well) the exchanges go both ways, so that
    //   every lane ends with the sum. Every lane of the warp takes part in every exchange. Graded
    //   (`bash lessons/grade.sh 08`), both variants: the total for n = 0, 1, 31, 32, 33, 255, 256,
    //   257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats
    //   within float rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and 1024
    //   threads at n = block + 1, 1000 and 67 * block - 3. On the simulator the cases up to 2^16+1
    //   run again with each block's threads in reverse and in shuffled order: a result that needs
    //   lane order fails. Then, on the simulator, the grade reads a trace of your kernel (n = 2048,
    //   256-thread blocks): whole warps, no bank conflict, and at least five levels that add
    //   through shuffles.
    if (tid == 0) out[blockIdx.x] = v;
  }
}

RL_NAMESPACE_END
