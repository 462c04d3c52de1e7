#pragma once
// One thread's share of a grid-stride pass over in[0, n), read 16 bytes at a time.
#include <cstdint>

#include "common/cuda_compat.h"

namespace rl {
inline namespace RL_BACKEND_NS {

inline constexpr unsigned loads_in_flight = 4;  // float4 loads each thread issues before adding any

// cudaMalloc aligns to 256 bytes, but a caller may pass `in + 1`: the floats before the first
// 16-byte boundary (the head) and after the last whole float4 (the tail) are read one by one.
template <unsigned Block>
__device__ __forceinline__ float thread_sum_vectorized(const float* in, std::uint64_t n) {
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  const std::uint64_t threads = std::uint64_t{gridDim.x} * Block;
  const std::uint64_t to_boundary = (4 - reinterpret_cast<std::uintptr_t>(in) / sizeof(float) % 4) % 4;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const auto* body = reinterpret_cast<const float4*>(in + head);  // now 16-byte aligned
  const std::uint64_t quads = (n - head) / 4;
  float sum = 0.0f;
  std::uint64_t q = thread;
  // Several independent 16-byte loads in flight per thread: a load takes ~1 us to return from
  // DRAM, and only bytes in flight hide that latency. Consecutive threads read consecutive quads.
  for (; q + (loads_in_flight - 1) * threads < quads; q += loads_in_flight * threads) {
    float4 v[loads_in_flight];
#pragma unroll
    for (unsigned k = 0; k < loads_in_flight; ++k) v[k] = __ldg(body + q + k * threads);  // all issued first
#pragma unroll
    for (unsigned k = 0; k < loads_in_flight; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  for (; q < quads; q += threads) {  // the quads left over when quads is not a multiple of the stride
    const float4 v = __ldg(body + q);
    sum += (v.x + v.y) + (v.z + v.w);
  }
  const std::uint64_t tail = head + quads * 4;
  if (thread < head) sum += in[thread];
  if (thread < n - tail) sum += in[tail + thread];
  return sum;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
