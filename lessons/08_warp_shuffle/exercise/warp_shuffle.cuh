// Exercise 08: finish the warp's last five levels in registers with shuffles.
// The solution is ../warp_shuffle.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 08: the last levels of the tree done in registers with warp shuffles instead of shared memory.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "common/trace/recorder.h"
#include "lessons/06_complete_unroll/tree_in_shared.cuh"
#include "lessons/07_multiple_elements_per_thread/grid_stride_sum.cuh"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, bool Butterfly, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) warp_shuffle(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  partial[tid] = grid_stride_sum<Block, Trace>(in, n);  // lesson 07
  Trace::store(1, shared_slot(tid), register_of(tid), partial[tid]);
  __syncthreads();
  unsigned level = shared_levels_down_to_64<Block, Trace>(partial, tid, 2);

  // THE IDEA: warp 0 takes the last 64 values into registers (one add each) and finishes with five
  // shuffles: no shared-memory round trips, no __syncwarp, and no bank to conflict in.
  if (tid < 32) {
    float v = partial[tid];
    Trace::load(level, register_of(tid), shared_slot(tid), v);
    if constexpr (Block >= 64) {
      v += partial[tid + 32];
      Trace::combine(level, register_of(tid), shared_slot(tid + 32), v);
    }
    // TODO(student): five shuffle levels, offsets 16, 8, 4, 2, 1, after which lane 0 holds the total:
    //   v += __shfl_down_sync(full_warp, v, offset), or __shfl_xor_sync when Butterfly (every lane
    //   then ends with it). Record each add with Trace::shuffle(step, register_of(tid),
    //   register_of(tid + offset), v) (tid ^ offset for the butterfly; shifting down, only lanes
    //   below the offset), step = level + 1, level + 2, ...; leave `level` as it is.
    if (tid == 0) {
      out[blockIdx.x] = v;
      Trace::store(level + 6, global_at(out + blockIdx.x), register_of(0), v);
    }
  }
}

struct WarpShuffle : GridStridePlan<WarpShuffle> {
  static constexpr int lesson = 8;
  static constexpr const char* slug = "warp_shuffle";
  static constexpr const char* title = "Warp shuffles for the last levels";
  template <unsigned Block, class Trace>
  static constexpr GridKernel kernel = warp_shuffle<Block, false, Trace>;
};

struct WarpShuffleButterfly : GridStridePlan<WarpShuffleButterfly> {
  static constexpr int lesson = 8;
  static constexpr const char* slug = "warp_shuffle";
  static constexpr const char* title = "Warp shuffles for the last levels";
  static constexpr const char* variant = "butterfly";
  template <unsigned Block, class Trace>
  static constexpr GridKernel kernel = warp_shuffle<Block, true, Trace>;
};

RL_NAMESPACE_END
