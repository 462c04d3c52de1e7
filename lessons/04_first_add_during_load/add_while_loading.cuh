#pragma once
// Lesson 04's load, for the lessons that keep it (05 and 06): thread tid of a block that covers
// 2 * block inputs from `first` adds its two elements on the way in and returns the sum.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"

namespace rl {
inline namespace RL_BACKEND_NS {

template <class Trace = NoTrace>
__device__ __forceinline__ float add_while_loading(const float* in, std::uint64_t n, std::uint64_t first, unsigned block) {
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = first + tid;
  float sum = i < n ? in[i] : 0.0f;
  if (i < n) Trace::load(0, register_of(tid), global_at(in + i), sum);
  if (i + block < n) {
    sum += in[i + block];  // one block further on: both loads coalesced
    Trace::combine(0, register_of(tid), global_at(in + i + block), sum);
  }
  return sum;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
