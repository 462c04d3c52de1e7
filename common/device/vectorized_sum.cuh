#pragma once
// Lesson 12's idea, for the lessons after it (20): this thread's sum over in[0, n) read 16 bytes at
// a time, several loads in flight, consecutive threads on consecutive float4s; the floats before
// the first 16-byte boundary (the head) and after the last whole float4 (the tail) one by one.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <unsigned Block, unsigned LoadsInFlight, class Trace = NoTrace>
__device__ __forceinline__ Float<Trace> vectorized_sum(In<Trace> in, std::uint64_t n,
                                                       unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  const std::uint64_t to_boundary = (4 - address_of(in) / sizeof(float) % 4) % 4;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const auto body = as_float4(in + head);  // now 16-byte aligned
  const std::uint64_t quads = (n - head) / 4;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * Block;
  Float<Trace> sum = 0.0f;
  std::uint64_t q = thread;
  for (; q + (LoadsInFlight - 1) * stride < quads; q += LoadsInFlight * stride) {
    Float4<Trace> v[LoadsInFlight];
    // all issued before the first is used
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) v[k] = __ldg(body + q + k * stride);
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  for (; q < quads; q += stride) {  // what is left when the share is not a multiple of the unroll
    const Float4<Trace> v = __ldg(body + q);
    sum += (v.x + v.y) + (v.z + v.w);
  }
  const std::uint64_t tail = head + quads * 4;
  if (thread < head) sum += in[thread];
  if (thread < n - tail) sum += in[tail + thread];
  return sum;
}

RL_NAMESPACE_END
