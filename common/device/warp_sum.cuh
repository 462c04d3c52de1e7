#pragma once
// Lesson 08's idea, for the lessons after it: a warp's sum in registers, through shuffles.
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

inline constexpr unsigned full_warp = 0xffffffffu;  // every lane takes part in each shuffle

// Tree by shifting down: at each level lane i adds the register of lane i + offset. A shuffle waits
// for every lane named in the mask, so nothing is read before it is written. Lane 0 ends with the
// warp's total (the upper lanes hold partial sums nobody reads).
template <class Trace = NoTrace>
__device__ __forceinline__ Float<Trace> warp_sum(Float<Trace> v, unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(full_warp, v, offset);
  return v;
}

RL_NAMESPACE_END
