// Exercise 09: a block's sum in every thread, in two stages of shuffles. Do what the
// TODO(student) below asks; grade it with `bash lessons/grade.sh 09`, and when stuck ask
// `build-student/bin/09_block_two_stage --hint 1` (then 2, 3). The solution is
// ../block_two_stage.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 09: no shared-memory tree at all: every warp reduces with shuffles, lane 0 of each writes
// one word, and the first warp reduces those words.
#include <cstdint>

#include "common/device/grid_stride_sum.cuh"
#include "common/device/traced.h"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

// Everyone: the `everyone` variant (every thread ends with the block's total, below). Trace:
// NoTrace (timed) or RecordTrace (--trace), see traced.h.
template <unsigned Block, class Trace = NoTrace, bool Everyone = false>
__global__ void __launch_bounds__(Block)
    block_two_stage(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Float<Trace> sum = grid_stride_sum<Block, Trace>(in, n);  // lesson 07
  if constexpr (!Everyone) {
    // THE IDEA: log2(Block) shared-memory levels with a barrier each become two rounds of five
    // shuffles and one barrier.
    sum = warp_sum<Trace>(sum);  // stage 1: every warp at once, in registers (lesson 08)
    if constexpr (Block > 32) {
      // one word per warp: 32x fewer shared accesses than a tree
      __shared__ float totals[Block / 32];
      Shared<Trace> warp_totals = totals;
      const unsigned lane = threadIdx.x % 32;
      const unsigned warp = threadIdx.x / 32;
      if (lane == 0) warp_totals[warp] = sum;
      __syncthreads();  // the only block-wide barrier: every warp's total is written
      if (warp == 0) {  // stage 2: the first warp sums the warps' totals
        sum = lane < Block / 32 ? Float<Trace>(warp_totals[lane]) : 0.0f;
        sum = warp_sum<Trace>(sum);
      }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sum;
  } else {
    // The everyone variant (exercise 09): every thread of the block ends with the block's total,
    // still with one block-wide barrier.
    // TODO(student): the block's sum of every thread's `sum`, in every thread's `sum` (the last
    //   thread stores it below), with one block-wide barrier, as in the two stages above: register
    //   exchanges within each warp (lesson 08), done by all warps at once, and one trip through
    //   shared memory, one word per warp. After the barrier no thread may write shared memory that
    //   another still reads. Block is a whole number of warps from 32 (one warp: no shared memory
    //   needed) to 1024. Every thread of the block reaches the barrier. Graded (`bash
    //   lessons/grade.sh 09`), both variants: the total for n = 0, 1, 31, 32, 33, 255, 256, 257,
    //   1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within
    //   float rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and 1024
    //   threads at n = block + 1, 1000 and 67 * block - 3. On the simulator the cases up to 2^16+1
    //   run again with each block's threads in reverse and in shuffled order: a result that needs
    //   lane order fails. Then, on the simulator, the grade reads a trace of the everyone variant
    //   (n = 2048, 256-thread blocks): whole warps, no bank conflict, five levels of shuffles, and
    //   at most one __syncthreads a block.
    // the last thread stores: a block whose total reached thread 0 alone fails
    if (threadIdx.x == Block - 1) out[blockIdx.x] = sum;
  }
}

RL_NAMESPACE_END
