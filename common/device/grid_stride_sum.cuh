#pragma once
// Lesson 07's idea, for the lessons after it (08, 09, 10): this thread's sum over the input in
// grid-sized strides, two loads a step.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace>
__device__ __forceinline__ Float<Trace> grid_stride_sum(In<Trace> in, std::uint64_t n,
                                                        unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  const std::uint64_t stride = std::uint64_t{2 * Block} * gridDim.x;
  Float<Trace> sum = 0.0f;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * Block) + threadIdx.x; i < n;
       i += stride) {
    sum += in[i];
    if (i + Block < n) sum += in[i + Block];  // lesson 04's second load, one block further on
  }
  return sum;
}

RL_NAMESPACE_END
