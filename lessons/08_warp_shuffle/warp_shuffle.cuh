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
        // the butterfly variant (exercise 08): every lane ends with the total
        v += __shfl_xor_sync(full_warp, v, offset);
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
