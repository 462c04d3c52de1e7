#pragma once
// Lesson 06's idea, for the lessons after it (07, 08): the block's tree over partial[0..Block),
// every level decided at compile time.
#include "common/device/traced.h"
#include "common/device/warp_tail_in_shared.cuh"

RL_NAMESPACE_BEGIN

// One level of the block-wide tree: threads below `Half` add the slot `Half` above them.
template <unsigned Block, unsigned Half, class Trace>
__device__ __forceinline__ void shared_level(Shared<Trace> partial, unsigned tid) {
  if constexpr (Block >= 2 * Half) {  // decided by the compiler: absent levels leave no code
    if (tid < Half) partial[tid] += partial[tid + Half];
    __syncthreads();
  }
}

// The block-wide levels, down to 64 values in partial[0..64). Every thread of the block must call
// it (it has barriers). Block is a constant, so a 256-thread kernel contains exactly the levels 128
// and 64, with no loop counter and no compare.
template <unsigned Block, class Trace = NoTrace>
__device__ __forceinline__ void shared_levels_down_to_64(Shared<Trace> partial, unsigned tid,
                                                         unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0,
                "a power of two from 32 to 1024");
  shared_level<Block, 512, Trace>(partial, tid);
  shared_level<Block, 256, Trace>(partial, tid);
  shared_level<Block, 128, Trace>(partial, tid);
  shared_level<Block, 64, Trace>(partial, tid);
}

// Leaves the block's total in partial[0]. Every thread of the block calls it.
template <unsigned Block, class Trace = NoTrace>
__device__ __forceinline__ void tree_in_shared(Shared<Trace> partial, unsigned tid,
                                               unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  shared_levels_down_to_64<Block, Trace>(partial, tid);
  if (tid < 32) warp_tail_in_shared<Trace>(partial, tid, Block);  // lesson 05's warp levels
}

RL_NAMESPACE_END
