#pragma once
// Lesson 06's idea as a reusable piece: the block's tree over partial[0..Block), every level
// decided at compile time. Lessons 07 onward call it after their own loading loops.
#include "common/cuda_compat.h"
#include "lessons/05_unroll_last_warp/warp_reduce_in_shared.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

// The block-wide levels, down to 64 values in partial[0..64). Every thread of the block must call
// it (it has barriers).
template <unsigned Block>
__device__ __forceinline__ void shared_levels_down_to_64(float* partial, unsigned tid) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0, "a power of two from 32 to 1024");
  // Block is a constant, so each `if constexpr` is decided by the compiler: a 256-thread kernel
  // contains exactly the levels 128 and 64, with no loop counter and no compare.
  if constexpr (Block >= 1024) { if (tid < 512) partial[tid] += partial[tid + 512]; __syncthreads(); }
  if constexpr (Block >= 512) { if (tid < 256) partial[tid] += partial[tid + 256]; __syncthreads(); }
  if constexpr (Block >= 256) { if (tid < 128) partial[tid] += partial[tid + 128]; __syncthreads(); }
  if constexpr (Block >= 128) { if (tid < 64) partial[tid] += partial[tid + 64]; __syncthreads(); }
}

// Leaves the block's total in partial[0]. Every thread of the block must call it.
template <unsigned Block>
__device__ __forceinline__ void tree_in_shared(float* partial, unsigned tid) {
  shared_levels_down_to_64<Block>(partial, tid);
  if (tid < 32) warp_reduce_in_shared(partial, tid, Block);  // lesson 05's warp levels, Block constant
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
