// Exercise 06: the tree unrolled by the compiler, for a block that is not a power of two. Do what
// the TODO(student) below asks; grade it with `bash lessons/grade.sh 06`, and when stuck ask
// `build-student/bin/06_complete_unroll --hint 1` (then 2, 3). The solution is
// ../complete_unroll.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
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

  // THE IDEA: Block is known to the compiler, so each `if constexpr` below either becomes one level
  // of straight-line code or vanishes: a 256-thread kernel holds exactly the levels 128 and 64,
  // with no loop counter, no compare of the stride and no branch back.
  if constexpr (Block >= 1024) {
    if (tid < 512) partial[tid] += partial[tid + 512];
    __syncthreads();
  }
  if constexpr (Block >= 512) {
    if (tid < 256) partial[tid] += partial[tid + 256];
    __syncthreads();
  }
  if constexpr (Block >= 256) {
    if (tid < 128) partial[tid] += partial[tid + 128];
    __syncthreads();
  }
  if constexpr (Block >= 128) {
    if (tid < 64) partial[tid] += partial[tid + 64];
    __syncthreads();
  }
  if (tid < 32) warp_tail_in_shared<Trace>(partial, tid, Block);  // lesson 05's last six levels
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// The `non_power_of_two` variant: the same unrolled tree for a Block that is a whole number of
// warps but not a power of two (plan.cu instantiates three quarters of the block: 96, 192, 384,
// 768). Lesson 06's levels would lose the values past the largest power of two below Block.
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    complete_unroll_any_block(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  // whole warps: the warp tail's __syncwarp() names all 32 lanes
  static_assert(Block >= 32 && Block <= 1024 && Block % 32 == 0, "whole warps, at most 1024");
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * Block);
  partial[tid] = add_while_loading<Trace>(in, n, first, Block);  // lesson 04
  __syncthreads();

  // TODO(student): the block-wide levels for this Block, from Block values down to 64 (the warp
  //   tail below does the last six), unrolled as lesson 06's are: each level under a test the
  //   compiler decides, so that a Block keeps exactly the levels it needs and nothing of others.
  //   Block is a whole number of warps from 32 to 1024 but not always a power of two: plan.cu
  //   instantiates 96, 192, 384 and 768 (and 32, 64). No value may be lost, none added twice, and
  //   the threads that add at a level must be whole warps, contiguous from thread 0. Graded (`bash
  //   lessons/grade.sh 06`): the totals of both plans for n = 0, 1, 31, 32, 33, 255, 256, 257,
  //   1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within
  //   float rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and 1024 at
  //   n = block + 1, 1000 and 67 * block - 3; on the simulator again in reverse and shuffled thread
  //   order. Then, on the simulator, the grade reads a trace of this kernel (n = 2048, Block 192):
  //   a tree, whole warps, no bank conflict, no __syncthreads after a level of 32 threads or fewer.
  // the levels leave 64 live slots, or Block where it is 32 or 64
  if (tid < 32) warp_tail_in_shared<Trace>(partial, tid, Block < 64 ? Block : 64);
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
