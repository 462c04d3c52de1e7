#pragma once
// The trace policy every lesson kernel takes as a template parameter. NoTrace, the default, has
// only empty inline functions: the traced calls compile to nothing and the kernel is exactly the
// untraced one. RecordTrace appends each event to a bounded buffer; a full buffer still counts
// events, so the host sees the overflow instead of a silently truncated tree.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/trace_event.h"
#if defined(__CUDACC__)
#include "common/gpu/check.h"
#endif

namespace rl {

struct TraceLoc {
  TraceSpace space;
  std::uint64_t index;
};
__host__ __device__ inline TraceLoc shared_slot(unsigned i) { return {TraceSpace::shared, i}; }
__host__ __device__ inline TraceLoc register_of(unsigned thread) { return {TraceSpace::reg, thread}; }
__host__ __device__ inline TraceLoc global_at(const void* p) {
  return {TraceSpace::global, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p))};
}

inline namespace RL_BACKEND_NS {
namespace {
// One buffer per lesson translation unit (internal linkage), so no relocatable device code is
// needed; the lesson's registration hands the harness a function that sets this TU's copy.
__device__ TraceBuffer trace_buffer;

[[maybe_unused]] void attach_trace_buffer(const TraceBuffer& b) {
#if defined(__CUDACC__)
  RL_CUDA_CHECK(cudaMemcpyToSymbol(trace_buffer, &b, sizeof b));
#else
  trace_buffer = b;
#endif
}
}  // namespace

struct NoTrace {
  static constexpr bool enabled = false;
  __device__ static void load(unsigned, TraceLoc, TraceLoc, float) {}
  __device__ static void combine(unsigned, TraceLoc, TraceLoc, float) {}
  __device__ static void shuffle(unsigned, TraceLoc, TraceLoc, float) {}
  __device__ static void store(unsigned, TraceLoc, TraceLoc, float) {}
  __device__ static void atomic(unsigned, TraceLoc, TraceLoc, float) {}
};

struct RecordTrace {
  static constexpr bool enabled = true;
  // __builtin_LINE() as a default argument is the line of the call in the kernel.
  __device__ static void load(unsigned step, TraceLoc dst, TraceLoc src, float v, unsigned line = __builtin_LINE()) {
    record(TraceKind::load, step, dst, src, v, line);
  }
  __device__ static void combine(unsigned step, TraceLoc dst, TraceLoc src, float v, unsigned line = __builtin_LINE()) {
    record(TraceKind::combine, step, dst, src, v, line);
  }
  __device__ static void shuffle(unsigned step, TraceLoc dst, TraceLoc src, float v, unsigned line = __builtin_LINE()) {
    record(TraceKind::shuffle, step, dst, src, v, line);
  }
  __device__ static void store(unsigned step, TraceLoc dst, TraceLoc src, float v, unsigned line = __builtin_LINE()) {
    record(TraceKind::store, step, dst, src, v, line);
  }
  __device__ static void atomic(unsigned step, TraceLoc dst, TraceLoc src, float v, unsigned line = __builtin_LINE()) {
    record(TraceKind::atomic, step, dst, src, v, line);
  }

 private:
  __device__ static void record(TraceKind kind, unsigned step, TraceLoc dst, TraceLoc src, float v, unsigned line) {
    const unsigned slot = atomicAdd(trace_buffer.count, 1u);
    if (slot >= trace_buffer.capacity) return;  // counted all the same: the host reports the overflow
    const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    trace_buffer.events[slot] = TraceEvent{dst.index, src.index, v, block, static_cast<std::int32_t>(thread),
                                           static_cast<std::uint16_t>(step), kind, dst.space, src.space, line};
  }
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
