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

  // The mistake: lesson 07's last warp, right and race-free, but through shared memory with two
  // __syncwarp a level: no value moves by a shuffle.
  if (tid < 32) {
    Float<Trace> sum = partial[tid];
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      if (tid + stride < Block) sum += partial[tid + stride];
      __syncwarp();
      partial[tid] = sum;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
