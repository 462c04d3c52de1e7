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
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
      if constexpr (Butterfly) {
        // TODO(student): the butterfly variant's exchange. The shift-down branch below leaves the
        //   sum in lane 0 alone; here every one of the 32 lanes must end with the block's sum in
        //   `v` (its last lane, 31, stores it), through the same five steps and with no shared
        //   memory and no __syncwarp. Every lane takes part in every exchange. Graded (`bash
        //   lessons/grade.sh 08`), both variants: the total for n = 0, 1, 31, 32, 33, 255, 256,
        //   257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats
        //   within float rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and
        //   1024 threads at n = block + 1, 1000 and 67 * block - 3. On the simulator the cases up
        //   to 2^16+1 run again with each block's threads in reverse and in shuffled order: a
        //   result that needs lane order fails. Then, on the simulator, the grade reads a trace of
        //   the butterfly variant (n = 2048, 256-thread blocks): whole warps, no bank conflict, and
        //   at least five levels that add through shuffles.
      } else {
        // lane i gets lane i + offset's: lane 0 ends with it
        v += __shfl_down_sync(full_warp, v, offset);
      }
    }
    // The butterfly's total is in every lane: its last lane stores it, so that a tail that leaves
    // the total in lane 0 alone fails.
    if (tid == (Butterfly ? 31 : 0)) out[blockIdx.x] = v;
  }
}

RL_NAMESPACE_END
