// Exercise 06: the tree unrolled by the compiler. Do what the TODO(student) below asks; grade it
// with `bash lessons/grade.sh 06`, and when stuck ask `build-student/bin/06_complete_unroll --hint
// 1` (then 2, 3). The solution is ../complete_unroll.cuh. Name a value in a register `Float<Trace>`
// and shared memory `Shared<Trace>`, as the code around does (common/device/traced.h): the same
// code then also records --trace.
#pragma once
// Lesson 06: the block size as a template parameter, so every level of the tree is unrolled at
// compile time and the untaken ones vanish (Harris's "reduction #6").
#include <cstdint>

#include "common/device/add_while_loading.cuh"
#include "common/device/traced.h"
#include "common/device/warp_tail_in_shared.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    complete_unroll(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0,
                "a power of two from 32 to 1024");
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  // Block is a constant: 2*Block folds
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * Block);
  partial[tid] = add_while_loading<Trace>(in, n, first, Block);  // lesson 04
  __syncthreads();

  // TODO(student): the block-wide levels of lesson 05's tree, from Block values down to 64 (the
  //   warp tail below does the last six), without the loop: Block is a compile-time constant, so
  //   write the levels so that the compiler keeps exactly those this Block needs, as straight-line
  //   code, and leaves nothing of the others, not even their barriers (a 256-thread kernel: two
  //   levels, no loop counter, no compare of a stride, no branch back). Block is a power of two
  //   from 32 to 1024; each block size is its own instantiation of the kernel, and each is graded.
  //   Graded (`bash lessons/grade.sh 06`): the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000,
  //   2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within float
  //   rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and 1024 threads at n =
  //   block + 1, 1000 and 67 * block - 3. On the simulator the cases up to 2^16+1 run again with
  //   each block's threads in reverse and in shuffled order: a result that needs lane order fails.
  //   Then, on the simulator, the grade reads a trace of your kernel (n = 2048, 256-thread blocks):
  //   lesson 05's tree, whole warps, no bank conflict and no __syncthreads after a level where 32
  //   threads or fewer work.
  if (tid < 32) warp_tail_in_shared<Trace>(partial, tid, Block);  // lesson 05's last six levels
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
