#pragma once
// Lesson 08: the last levels of the tree done in registers with warp shuffles instead of shared memory.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "lessons/06_complete_unroll/tree_in_shared.cuh"
#include "lessons/08_warp_shuffle/warp_sum.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

template <unsigned Block, bool Butterfly>
__global__ void __launch_bounds__(Block) warp_shuffle(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t stride = std::uint64_t{2 * Block} * gridDim.x;
  float sum = 0.0f;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * Block) + tid; i < n; i += stride) {  // lesson 07
    sum += in[i];
    if (i + Block < n) sum += in[i + Block];
  }
  partial[tid] = sum;
  __syncthreads();
  shared_levels_down_to_64<Block>(partial, tid);

  // THE IDEA: warp 0 takes the last 64 values into registers (one add each) and finishes with five
  // shuffles: no shared-memory round trips, no __syncwarp, and no bank to conflict in.
  if (tid < 32) {
    float v = partial[tid];
    if constexpr (Block >= 64) v += partial[tid + 32];
    v = Butterfly ? warp_sum_butterfly(v) : warp_sum(v);
    if (tid == 0) out[blockIdx.x] = v;
  }
}

struct WarpShuffle : GridStridePlan<WarpShuffle> {
  static constexpr int lesson = 8;
  static constexpr const char* slug = "warp_shuffle";
  static constexpr const char* title = "Warp shuffles for the last levels";
  template <unsigned Block>
  static constexpr GridKernel kernel = warp_shuffle<Block, false>;
};

struct WarpShuffleButterfly : GridStridePlan<WarpShuffleButterfly> {
  static constexpr int lesson = 8;
  static constexpr const char* slug = "warp_shuffle";
  static constexpr const char* title = "Warp shuffles for the last levels";
  static constexpr const char* variant = "butterfly";
  template <unsigned Block>
  static constexpr GridKernel kernel = warp_shuffle<Block, true>;
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
