#pragma once
// A warp's sum in registers, through shuffles: lesson 08's idea, reused by every later lesson.
#include "common/cuda_compat.h"
#include "common/trace/recorder.h"

namespace rl {
inline namespace RL_BACKEND_NS {

inline constexpr unsigned full_warp = 0xffffffffu;  // every lane takes part in each shuffle

// Tree by shifting down: at each level lane i adds the register of lane i + offset. A shuffle
// waits for every lane named in the mask, so no __syncwarp and no shared memory are needed, and
// nothing can be read before it is written. Lane 0 ends with the warp's total. `level`: the
// trace's first level; only lanes whose sum reaches lane 0 (lane < offset) record.
template <class Trace = NoTrace>
__device__ __forceinline__ float warp_sum(float v, unsigned level = 0) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2, ++level) {
    v += __shfl_down_sync(full_warp, v, offset);
    if (lane < static_cast<unsigned>(offset)) Trace::shuffle(level, register_of(threadIdx.x), register_of(threadIdx.x + offset), v);
  }
  return v;
}

// Butterfly: lanes exchange in pairs (i with i ^ mask), so every lane ends with the total. Each pair
// adds the same two numbers, in either order, and float addition commutes: all lanes agree bitwise.
template <class Trace = NoTrace>
__device__ __forceinline__ float warp_sum_butterfly(float v, unsigned level = 0) {
#pragma unroll
  for (int mask = 16; mask > 0; mask /= 2, ++level) {
    v += __shfl_xor_sync(full_warp, v, mask);
    Trace::shuffle(level, register_of(threadIdx.x), register_of(threadIdx.x ^ mask), v);
  }
  return v;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
