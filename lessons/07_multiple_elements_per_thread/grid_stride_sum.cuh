#pragma once
// Lesson 07's loading loop in a header of its own, so lesson 08 reuses it.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"

namespace rl {
inline namespace RL_BACKEND_NS {

// Lesson 07's loading loop, reused by 08: this thread's grid-stride sum, two loads a step.
template <unsigned Block, class Trace>
__device__ __forceinline__ float grid_stride_sum(const float* in, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t{2 * Block} * gridDim.x;
  float sum = 0.0f;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * Block) + threadIdx.x; i < n; i += stride) {
    sum += in[i];
    Trace::combine(0, register_of(threadIdx.x), global_at(in + i), sum);
    if (i + Block < n) {
      sum += in[i + Block];  // lesson 04's second load, one block further on
      Trace::combine(0, register_of(threadIdx.x), global_at(in + i + Block), sum);
    }
  }
  return sum;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
