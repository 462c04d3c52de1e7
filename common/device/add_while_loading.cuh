#pragma once
// Lesson 04's idea, for the lessons after it (05, 06): thread tid of a block that covers 2 * block
// inputs from `first` adds its two elements on the way in and returns the sum.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__device__ __forceinline__ Float<Trace> add_while_loading(In<Trace> in, std::uint64_t n,
                                                          std::uint64_t first, unsigned block,
                                                          unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  const std::uint64_t i = first + threadIdx.x;
  Float<Trace> sum = i < n ? in[i] : 0.0f;
  if (i + block < n) sum += in[i + block];  // one block further on: both loads coalesced
  return sum;
}

RL_NAMESPACE_END
