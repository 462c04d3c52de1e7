#pragma once
// One thread's share of a pass over in[0, n), read 16 bytes at a time.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"

namespace rl {
inline namespace RL_BACKEND_NS {

// How the quads (float4s) are dealt out: `interleaved`: thread t of the grid takes quads t, t + T,
// t + 2T, ... (T threads in the grid); `contiguous`: block b takes one contiguous segment of the
// quads, its threads striding through it by the block size.
enum class QuadOrder { interleaved, contiguous };

// For a trace: a quad enters the running sum as four elements, each its own leaf of the tree.
template <class Trace>
__device__ __forceinline__ void trace_quad(const float* at, float4 v, float before, float after) {
  if constexpr (Trace::enabled) {
    Trace::combine(0, register_of(threadIdx.x), global_at(at), before + v.x);
    Trace::combine(0, register_of(threadIdx.x), global_at(at + 1), before + v.x + v.y);
    Trace::combine(0, register_of(threadIdx.x), global_at(at + 2), before + v.x + v.y + v.z);
    Trace::combine(0, register_of(threadIdx.x), global_at(at + 3), after);
  }
}

// cudaMalloc aligns to 256 bytes, but a caller may pass `in + 1`: the floats before the first
// 16-byte boundary (the head) and after the last whole float4 (the tail) are read one by one.
template <unsigned Block, unsigned LoadsInFlight, QuadOrder Order, class Trace = NoTrace>
__device__ __forceinline__ float thread_sum_vectorized(const float* in, std::uint64_t n) {
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  const std::uint64_t to_boundary = (4 - reinterpret_cast<std::uintptr_t>(in) / sizeof(float) % 4) % 4;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const auto* body = reinterpret_cast<const float4*>(in + head);  // now 16-byte aligned
  const std::uint64_t quads = (n - head) / 4;

  std::uint64_t q, end, stride;
  if constexpr (Order == QuadOrder::interleaved) {
    q = thread;
    end = quads;
    stride = std::uint64_t{gridDim.x} * Block;
  } else {
    const std::uint64_t segment = (quads + gridDim.x - 1) / gridDim.x;
    q = blockIdx.x * segment + threadIdx.x;
    end = (blockIdx.x + 1) * segment < quads ? (blockIdx.x + 1) * segment : quads;
    stride = Block;
  }
  float sum = 0.0f;
  // Several independent 16-byte loads in flight per thread: a load takes about a microsecond to
  // return from DRAM, and only bytes in flight hide that. Consecutive threads read consecutive quads.
  for (; q + (LoadsInFlight - 1) * stride < end; q += LoadsInFlight * stride) {
    float4 v[LoadsInFlight];
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) v[k] = __ldg(body + q + k * stride);  // all issued first
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) {
      const float before = sum;
      sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
      trace_quad<Trace>(reinterpret_cast<const float*>(body + q + k * stride), v[k], before, sum);
    }
  }
  for (; q < end; q += stride) {  // what is left when the share is not a multiple of the unroll
    const float4 v = __ldg(body + q);
    const float before = sum;
    sum += (v.x + v.y) + (v.z + v.w);
    trace_quad<Trace>(reinterpret_cast<const float*>(body + q), v, before, sum);
  }
  const std::uint64_t tail = head + quads * 4;
  if (thread < head) {
    sum += in[thread];
    Trace::combine(0, register_of(threadIdx.x), global_at(in + thread), sum);
  }
  if (thread < n - tail) {
    sum += in[tail + thread];
    Trace::combine(0, register_of(threadIdx.x), global_at(in + tail + thread), sum);
  }
  return sum;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
