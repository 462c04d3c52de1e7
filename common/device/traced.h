#pragma once
// How a lesson kernel is traced without saying so. A kernel takes its trace policy as a template
// parameter and names its memory and its register values with the policy's types:
//
//   template <class Trace = NoTrace>
//   __global__ void k(In<Trace> in, Out<Trace> out, std::uint64_t n) {
//     Shared<Trace> partial = dynamic_shared<float>();
//     partial[tid] = i < n ? in[i] : 0.0f;
//     ...
//     if (tid == 0) partial[0] += partial[1];
//
// With NoTrace, the default and what is timed, In is `const float*`, Out and Shared are `float*`
// and Float is `float`: the kernel is plain CUDA and compiles to exactly the untraced code (on the
// simulator, Out and Shared are checked views that its race detector can see). With
// RecordTrace the same names are small classes whose element operations record themselves (a write
// to memory, an addition, a shuffle, an atomic add), each with the source line of the statement
// that did it (inside a helper of common/device, the kernel's line that called the helper:
// CallSite, below) and with where its operands came from, so the trace library can rebuild the tree and
// its levels from the data flow (common/trace/FORMAT.md). Barriers are not the kernel's business
// either: on the simulator they are reported by the scheduler; a GPU trace has none.
#include <cstdint>
#include <type_traits>

#include "common/cuda_compat.h"
#include "common/device/trace_event.h"
#if defined(__CUDACC__)
#include "common/backends/gpu/check.h"
#endif

RL_NAMESPACE_BEGIN
namespace {
// One buffer per lesson translation unit (internal linkage), so no relocatable device code is
// needed; the lesson's plan hands the harness a function that points this TU's copy at a buffer.
__device__ TraceBuffer trace_buffer;

// Where thread `thread` of block `block` keeps the line of the kernel that called the traced helper
// it is in (TraceBuffer::call_lines), or nullptr where there is no slot.
__device__ inline unsigned* call_line_slot(std::uint64_t block, std::uint64_t thread) {
  const std::uint64_t threads = std::uint64_t{blockDim.x} * blockDim.y * blockDim.z;
  const std::uint64_t id = block * threads + thread;
  return trace_buffer.call_lines && id < trace_buffer.call_line_slots ? trace_buffer.call_lines + id
                                                                      : nullptr;
}

#if !defined(__CUDACC__)
// The simulator's barriers, as events of the same buffer (it is host memory there). A barrier
// inside a traced helper takes the line of the kernel that called the helper, as its other events
// do: the call line of the barrier's first thread (every thread of a block barrier is at the same
// one).
void record_sync(const sim::SyncEvent& s) {
  const unsigned slot = atomicAdd(trace_buffer.count, 1u);
  if (slot >= trace_buffer.capacity) return;  // counted all the same: the host reports the overflow
  TraceEvent& e = trace_buffer.events[slot];
  e = TraceEvent{};
  e.kind = s.warp_mask ? EventKind::warp_barrier : EventKind::barrier;
  e.block = s.block;
  e.thread = s.warp_mask ? static_cast<std::int32_t>(s.warp * 32) : -1;
  e.dst = s.warp_mask;
  const unsigned first =
      s.warp_mask ? s.warp * 32 + static_cast<unsigned>(__builtin_ctz(s.warp_mask)) : 0u;
  const unsigned* called_at = call_line_slot(s.block, first);
  e.line = called_at && *called_at ? *called_at : s.line;
}
#endif

[[maybe_unused]] void attach_trace_buffer(const TraceBuffer& b) {
#if defined(__CUDACC__)
  RL_CUDA_CHECK(cudaMemcpyToSymbol(trace_buffer, &b, sizeof b));
#else
  trace_buffer = b;
  sim::set_sync_observer(b.events ? record_sync : nullptr);
#endif
}
}  // namespace

// What the timed kernels use: plain pointers and floats. Compiled by g++ for the simulator, shared
// memory and writable global memory are the simulator's checked views instead
// (common/sim/racecheck.h), which behave as the pointers do and, when its race detector is on
// (--sim-racecheck, --grade), report every element access with its source line; nvcc sees the
// pointers.
struct NoTrace {
  static constexpr bool enabled = false;
#if defined(__CUDACC__)
  template <class T>
  using Global = T*;
  template <class T>
  using SharedArray = T*;
  template <class T>
  using VolatileSharedArray = volatile T*;
#else
  template <class T>
  // the read-only input stays a pointer
  using Global = std::conditional_t<std::is_const_v<T>, T*, sim::GlobalView<T>>;
  template <class T>
  using SharedArray = sim::SharedView<T>;
  template <class T>
  using VolatileSharedArray = sim::VolatileSharedView<T>;
#endif
  using Value = float;
  using Value2 = float2;
  using Value4 = float4;
};

// The recording types and everything they instantiate have internal linkage, like trace_buffer:
// a helper such as warp_sum<RecordTrace> compiled in two lessons' objects must stay two functions,
// each writing its own lesson's buffer (with external linkage the linker kept one of them, and
// the other lesson's trace wrote through a buffer never attached).
namespace {
namespace traced {

// Appends one event; returns its position, which later events name when they read its result.
__device__ inline unsigned record(EventKind kind, TraceSpace dst_space, std::uint64_t dst,
                                  TraceOperand a, TraceOperand b, float value, unsigned line) {
  const unsigned slot = atomicAdd(trace_buffer.count, 1u);
  // counted all the same: the host reports the overflow
  if (slot >= trace_buffer.capacity) return slot;
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  TraceEvent e;
  e.dst = dst;
  e.a = a;
  e.b = b;
  e.value = value;
  e.block = block;
  e.thread = static_cast<std::int32_t>(thread);
  const unsigned* called_at = call_line_slot(block, thread);
  e.line = called_at && *called_at ? *called_at : line;
  e.kind = kind;
  e.dst_space = dst_space;
  trace_buffer.events[slot] = e;
  return slot;
}

// On the simulator, a traced run's loads and additions are also counted for thread 0 of block 0:
// the loads it issued before its first addition (sim::loads_before_first_add, lesson 11's grade).
__device__ inline void count_load() {
#if !defined(__CUDACC__)
  sim::detail::note_traced_load();
#endif
}
__device__ inline void count_add() {
#if !defined(__CUDACC__)
  sim::detail::note_traced_add();
#endif
}

__device__ inline unsigned this_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// A float in a register that knows where it came from: a constant, a memory location it was read
// from, or the event that computed it. `shuffled`: it just arrived from another lane.
struct Value {
  float v;
  TraceOperand from;
  bool shuffled;

  Value() = default;
  __device__ Value(float c) : v(c), from{0, c, TraceSpace::constant}, shuffled(false) {}
  __device__ Value(float x, TraceOperand f) : v(x), from(f), shuffled(false) {}
};

template <TraceSpace S>
struct MemRef;

// The right-hand side of a traced operation, with the line of the statement it appears in: the
// argument is converted where the kernel's expression is, so __builtin_LINE() is that line.
struct Operand {
  Value value;
  unsigned line;
  __device__ Operand(Value x, unsigned l = __builtin_LINE()) : value(x), line(l) {}
  __device__ Operand(float c, unsigned l = __builtin_LINE()) : value(c), line(l) {}
  template <TraceSpace S>
  __device__ Operand(const MemRef<S>& r, unsigned l = __builtin_LINE())
      : value(r.read()), line(l) {}
};

// dst = a + b into this thread's register; the result names the event.
__device__ inline Value add_in_register(const Value& a, const Operand& b) {
  const float sum = a.v + b.value.v;
  count_add();
  const unsigned id = record(b.value.shuffled ? EventKind::shuffle : EventKind::combine,
                             TraceSpace::reg, this_thread(), a.from, b.value.from, sum, b.line);
  return Value(sum, TraceOperand{id, sum, TraceSpace::event});
}

__device__ inline Value operator+(const Value& a, const Operand& b) {
  return add_in_register(a, b);
}
__device__ inline Value& operator+=(Value& a, const Operand& b) {
  return a = add_in_register(a, b);
}

// One element of shared (S = shared) or global (S = global) memory: reading it gives a Value that
// names the element; assigning or adding to it records the write.
template <TraceSpace S>
struct MemRef {
  float* p;
  std::uint64_t index;  // shared: the index in the array; global: the address
  static constexpr TraceSpace space = S;

  __device__ Value read() const { return Value(*p, TraceOperand{index, *p, S}); }
  __device__ operator Value() const { return read(); }

  __device__ MemRef& assign(const Operand& x) {
    *p = x.value.v;
    // Global to shared is a load; anything else written to memory is a store.
    const bool load = space == TraceSpace::shared && x.value.from.space == TraceSpace::global;
    record(load ? EventKind::load : EventKind::store, space, index, x.value.from, TraceOperand{},
           x.value.v, x.line);
    return *this;
  }
  __device__ MemRef& operator=(const Operand& x) { return assign(x); }
  // `a[i] = b[j]`: the copy assignment is chosen here, which cannot see the kernel's line (0:
  // unknown).
  __device__ MemRef& operator=(const MemRef& r) { return assign(Operand(r.read(), 0u)); }
  __device__ MemRef& operator+=(const Operand& x) {
    const Value before = read();
    *p = before.v + x.value.v;
    count_add();
    record(x.value.shuffled ? EventKind::shuffle : EventKind::combine, space, index, before.from,
           x.value.from, *p, x.line);
    return *this;
  }
};

// A pointer into global (S = global) or shared (S = shared) memory. Indexing a read-only one gives
// the Value; a writable one gives the element's MemRef.
template <class T, TraceSpace S>
struct Ptr {
  T* p;
  T* base;  // shared: the array's first element, so indexes are within it

  __device__ Ptr(T* q) : p(q), base(q) {}
  __device__ Ptr(T* q, T* b) : p(q), base(b) {}

  __device__ std::uint64_t where(std::uint64_t i) const {
    if constexpr (S == TraceSpace::shared)
      return static_cast<std::uint64_t>(p - base) + i;
    else
      return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p + i));
  }
  __device__ auto operator[](std::uint64_t i) const {
    if constexpr (std::is_const_v<T>)
      return Value(p[i], TraceOperand{where(i), p[i], S});
    else
      return MemRef<S>{p + i, where(i)};
  }
  __device__ Ptr operator+(std::uint64_t i) const { return Ptr(p + i, base); }
  __device__ Ptr operator-(std::uint64_t i) const { return Ptr(p - i, base); }
  __device__ T* get() const { return p; }
};

// float2 and float4 in a register: a Value per element, each naming its own address.
struct Value2 {
  Value x, y;
};
struct Value4 {
  Value x, y, z, w;
};

}  // namespace traced

// What --trace runs: the same kernels, recording.
struct RecordTrace {
  static constexpr bool enabled = true;
  template <class T>
  using Global = traced::Ptr<T, TraceSpace::global>;
  template <class T>
  using SharedArray = traced::Ptr<T, TraceSpace::shared>;
  template <class T>
  // a recorded access is never cached anyway
  using VolatileSharedArray = traced::Ptr<T, TraceSpace::shared>;
  using Value = traced::Value;
  using Value2 = traced::Value2;
  using Value4 = traced::Value4;
};

// A traced helper of common/device (warp_sum, block_sum, tree_in_shared, ...) records its work,
// its barriers included, at the line of the kernel that called it, so that every line of a trace
// is a line of the kernel's own file (common/trace/FORMAT.md, "line"). Each helper takes
// `unsigned line = __builtin_LINE()`, which is evaluated where it is called, and opens a CallSite
// with it; in a helper another helper called, the outer call's line stays. Nothing with NoTrace.
template <class Trace>
struct CallSite {
  __device__ explicit CallSite([[maybe_unused]] unsigned line) {
    if constexpr (Trace::enabled) {
      slot = call_line_slot(blockIdx.x + std::uint64_t{gridDim.x} *
                                             (blockIdx.y + std::uint64_t{gridDim.y} * blockIdx.z),
                            threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
      if (slot && *slot == 0)
        *slot = line;
      else
        slot = nullptr;  // inside another helper: its line stays
    }
  }
  __device__ ~CallSite() {
    if (slot) *slot = 0;
  }
  CallSite(const CallSite&) = delete;
  CallSite& operator=(const CallSite&) = delete;
  unsigned* slot = nullptr;
};
}  // namespace

// The names kernels use.
template <class Trace>
using In = typename Trace::template Global<const float>;  // the input, read-only
template <class Trace>
// a result or partials, written (and maybe read back)
using Out = typename Trace::template Global<float>;
template <class Trace>
using Shared = typename Trace::template SharedArray<float>;  // a block's shared array
template <class Trace>
// the same, read and written as volatile
using VolatileShared = typename Trace::template VolatileSharedArray<float>;
template <class Trace>
using Float = typename Trace::Value;  // a float in a register
template <class Trace>
using Float2 = typename Trace::Value2;  // two floats loaded at once
template <class Trace>
using Float4 = typename Trace::Value4;  // four floats loaded at once

// Casts for vector loads, which a traced pointer needs spelled out: the input viewed as float2s or
// float4s, and a pointer's address (for its alignment).
__host__ __device__ inline const float2* as_float2(const float* p) {
  return reinterpret_cast<const float2*>(p);
}
__host__ __device__ inline const float4* as_float4(const float* p) {
  return reinterpret_cast<const float4*>(p);
}
__host__ __device__ inline std::uintptr_t address_of(const float* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

namespace {
namespace traced {

__device__ inline auto as_float2(Ptr<const float, TraceSpace::global> p) {
  return Ptr<const float2, TraceSpace::global>(reinterpret_cast<const float2*>(p.get()));
}
__device__ inline auto as_float4(Ptr<const float, TraceSpace::global> p) {
  return Ptr<const float4, TraceSpace::global>(reinterpret_cast<const float4*>(p.get()));
}
__device__ inline std::uintptr_t address_of(Ptr<const float, TraceSpace::global> p) {
  return reinterpret_cast<std::uintptr_t>(p.get());
}

// The loads and atomics the lessons use, on traced pointers (found by argument-dependent lookup;
// the kernel's text is the same as for plain pointers).
__device__ inline Value __ldg(Ptr<const float, TraceSpace::global> p) {
  count_load();
  return p[0];
}
__device__ inline Value __ldcg(Ptr<float, TraceSpace::global> p) {
  count_load();
  const float v = ::__ldcg(p.get());
  return Value(v, TraceOperand{p.where(0), v, TraceSpace::global});
}
__device__ inline Value2 __ldg(Ptr<const float2, TraceSpace::global> p) {
  count_load();
  const float2 q = ::__ldg(p.get());
  const auto at = [&](unsigned k, float v) {
    return Value(v, TraceOperand{p.where(0) + k * sizeof(float), v, TraceSpace::global});
  };
  return Value2{at(0, q.x), at(1, q.y)};
}
__device__ inline Value4 __ldg(Ptr<const float4, TraceSpace::global> p) {
  count_load();
  const float4 q = ::__ldg(p.get());
  const auto at = [&](unsigned k, float v) {
    return Value(v, TraceOperand{p.where(0) + k * sizeof(float), v, TraceSpace::global});
  };
  return Value4{at(0, q.x), at(1, q.y), at(2, q.z), at(3, q.w)};
}
__device__ inline float atomicAdd(Ptr<float, TraceSpace::global> p, const Operand& x) {
  const float before = ::atomicAdd(p.get(), x.value.v);
  record(EventKind::atomic, TraceSpace::global, p.where(0),
         TraceOperand{p.where(0), before, TraceSpace::global}, x.value.from, before + x.value.v,
         x.line);
  return before;
}

// A shuffle moves the value and where it came from (another lane's event, or the slot it read).
template <class Shuffle>
__device__ inline Value shuffle_value(const Value& v, Shuffle&& shfl) {
  Value r;
  r.v = shfl(v.v);
  r.from.value = r.v;
  r.from.space = static_cast<TraceSpace>(shfl(static_cast<unsigned>(v.from.space)));
  const unsigned lo = shfl(static_cast<unsigned>(v.from.index));
  const unsigned hi = shfl(static_cast<unsigned>(v.from.index >> 32));
  r.from.index = (std::uint64_t{hi} << 32) | lo;
  r.shuffled = true;
  return r;
}
__device__ inline Value __shfl_down_sync(unsigned mask, const Value& v, unsigned delta,
                                         int width = warpSize) {
  return shuffle_value(v, [&](auto x) { return ::__shfl_down_sync(mask, x, delta, width); });
}
__device__ inline Value __shfl_xor_sync(unsigned mask, const Value& v, int lane_mask,
                                        int width = warpSize) {
  return shuffle_value(v, [&](auto x) { return ::__shfl_xor_sync(mask, x, lane_mask, width); });
}

}  // namespace traced
}  // namespace
RL_NAMESPACE_END
