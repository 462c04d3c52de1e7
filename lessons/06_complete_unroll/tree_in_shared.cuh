#pragma once
// Lesson 06's idea as a reusable piece: the block's tree over partial[0..Block), every level
// decided at compile time. Lessons 07 onward call it after their own loading loops.
#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "lessons/05_unroll_last_warp/warp_reduce_in_shared.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

// One level of the block-wide tree: threads below `half` add the slot `half` above them.
template <unsigned Block, unsigned Half, class Trace>
__device__ __forceinline__ void shared_level(float* partial, unsigned tid, unsigned level) {
  if constexpr (Block >= 2 * Half) {  // decided by the compiler: absent levels leave no code
    if (tid < Half) {
      partial[tid] += partial[tid + Half];
      Trace::combine(level, shared_slot(tid), shared_slot(tid + Half), partial[tid]);
    }
    __syncthreads();
  }
}

// The block-wide levels, down to 64 values in partial[0..64); returns the next tree level. Every
// thread of the block must call it (it has barriers). Block is a constant, so a 256-thread kernel
// contains exactly the levels 128 and 64, with no loop counter and no compare.
template <unsigned Block, class Trace = NoTrace>
__device__ __forceinline__ unsigned shared_levels_down_to_64(float* partial, unsigned tid, unsigned level) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0, "a power of two from 32 to 1024");
  shared_level<Block, 512, Trace>(partial, tid, level);
  shared_level<Block, 256, Trace>(partial, tid, level + (Block >= 1024));
  shared_level<Block, 128, Trace>(partial, tid, level + (Block >= 1024) + (Block >= 512));
  shared_level<Block, 64, Trace>(partial, tid, level + (Block >= 1024) + (Block >= 512) + (Block >= 256));
  return level + (Block >= 1024) + (Block >= 512) + (Block >= 256) + (Block >= 128);
}

// Leaves the block's total in partial[0]; returns the level after the last. Every thread calls it.
template <unsigned Block, class Trace = NoTrace>
__device__ __forceinline__ unsigned tree_in_shared(float* partial, unsigned tid, unsigned level) {
  level = shared_levels_down_to_64<Block, Trace>(partial, tid, level);
  if (tid < 32) warp_reduce_in_shared<Trace>(partial, tid, Block, level);  // lesson 05's warp levels
  return level + (Block >= 64 ? 6 : 5);
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
