// Checked views of shared and global memory: what the simulator's race detector sees.
//
// A kernel that names its memory with these views instead of raw pointers has every element read
// and write reported, with the source line of the subscript, to the race detector of the block that
// runs it (Options::racecheck). With race checking off an access costs one predictable branch.
//
//   rl::sim::SharedView<float> s = rl::dynamic_shared<float>();
//   s[tid] = in[i];                          // a write of shared[tid]
//   __syncthreads();
//   if (tid < stride) s[tid] += s[tid + stride];
//   rl::sim::VolatileSharedView<float> v = s;  // the same memory, read and written as volatile
//
// The lesson kernels get these types through their trace policy (common/device/traced.h): NoTrace's
// SharedArray and writable Global are these views when g++ compiles them for the simulator, plain
// pointers when nvcc compiles them for the GPU.
//
// What the detector reports (README.md, "Race checking"): within one block, two accesses of one
// location by different threads, at least one a write, that no synchronisation orders: a completed
// __syncthreads orders everything before it with everything after it; a completed __syncwarp
// orders the accesses of the lanes it names (shuffles and votes order nothing). Across blocks, two
// accesses of one global location that CUDA's memory model does not order (README.md, "Memory
// ordering across blocks"). The first such pair ends the launch with a KernelError whose report
// names both threads, the location and both source lines.
#pragma once
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "common/sim/atomics.h"
#include "common/sim/runtime.h"

namespace rl::sim {

enum class MemorySpace : unsigned char { shared, global };

namespace detail {

enum class AccessKind : unsigned char { read, write };

// Hands one access to the race detector of the block running on this host thread (none: ignored).
// `base` is the start of the view the access went through and `element_bytes` its element's size,
// which name the location in a report (shared[37]). A read passes `stale` (room for `bytes`): true
// back means late visibility (Options::late_visibility) gives it the bytes now in `stale`, the value
// from before another block's write that nothing orders before the read.
bool report_access(const void* address, std::size_t bytes, AccessKind kind, MemorySpace space,
                   const void* base, std::size_t element_bytes, const std::source_location& loc,
                   void* stale = nullptr);

}  // namespace detail

// An index into a checked view that remembers where the kernel wrote the subscript: the default
// argument is evaluated where the kernel's integer is converted, i.e. at the kernel's expression.
struct CheckedIndex {
  std::ptrdiff_t i;
  std::source_location loc;
  template <std::integral I>
  // NOLINT: implicit on purpose
  CheckedIndex(I index, std::source_location where = std::source_location::current())
      : i(static_cast<std::ptrdiff_t>(index)), loc(where) {}
};

// One element of a checked view: converting it to T reads it, assigning to it writes it, and a
// compound assignment does both.
template <class T, MemorySpace S, bool Volatile = false>
class CheckedRef {
 public:
  using Pointer = std::conditional_t<Volatile, volatile T*, T*>;

  CheckedRef(Pointer p, const T* base, const std::source_location& loc)
      : p_(p), base_(base), loc_(loc) {}

  operator T() const {  // NOLINT: implicit, as reading an lvalue is
    if (detail::racecheck_requested) [[unlikely]] {
      if constexpr (S == MemorySpace::global && std::is_trivially_copyable_v<T>) {
        alignas(T) unsigned char stale[sizeof(T)];
        if (detail::report_access(const_cast<const T*>(p_), sizeof(T), detail::AccessKind::read, S,
                                  base_, sizeof(T), loc_, stale)) {
          T v;
          std::memcpy(&v, stale, sizeof(T));
          return v;
        }
      } else {
        note(detail::AccessKind::read);
      }
    }
    return *p_;
  }
  CheckedRef& operator=(const T& v) {
    note(detail::AccessKind::write);
    *p_ = v;
    return *this;
  }
  // `a[i] = b[j]`: a read of b[j], then a write of a[i].
  CheckedRef& operator=(const CheckedRef& r) { return *this = static_cast<T>(r); }
  template <class U, MemorySpace S2, bool V2>
  CheckedRef& operator=(const CheckedRef<U, S2, V2>& r) {
    return *this = static_cast<T>(static_cast<U>(r));
  }
  CheckedRef& operator+=(const T& v) { return *this = static_cast<T>(*this) + v; }
  CheckedRef& operator-=(const T& v) { return *this = static_cast<T>(*this) - v; }
  CheckedRef& operator*=(const T& v) { return *this = static_cast<T>(*this) * v; }
  CheckedRef& operator/=(const T& v) { return *this = static_cast<T>(*this) / v; }

 private:
  void note(detail::AccessKind kind) const {
    if (detail::racecheck_requested) [[unlikely]]
      detail::report_access(const_cast<const T*>(p_), sizeof(T), kind, S, base_, sizeof(T), loc_);
  }

  Pointer p_;
  const T* base_;
  std::source_location loc_;
};

// A pointer into shared (S = shared) or global (S = global) memory whose element accesses are
// checked. `base` is where the array starts (kept through + and -), so reports index within it.
template <class T, MemorySpace S, bool Volatile = false>
class CheckedView {
 public:
  using Pointer = std::conditional_t<Volatile, volatile T*, T*>;
  using element_type = T;

  // NOLINT: implicit, so `Shared<Trace> s = dynamic_shared<float>()`
  CheckedView(T* p) : p_(p), base_(p) {}
  CheckedView(Pointer p, const T* base) : p_(p), base_(base) {}
  // The volatile view of a plain one (the classic warp-synchronous tail): same memory, same base.
  template <bool V>
  requires(Volatile && !V)
      // NOLINT: implicit
      CheckedView(const CheckedView<T, S, V>& plain)
      : p_(plain.get()), base_(plain.base()) {}

  CheckedRef<T, S, Volatile> operator[](CheckedIndex i) const { return {p_ + i.i, base_, i.loc}; }
  CheckedView operator+(std::ptrdiff_t k) const { return CheckedView(p_ + k, base_); }
  CheckedView operator-(std::ptrdiff_t k) const { return CheckedView(p_ - k, base_); }

  Pointer get() const { return p_; }
  const T* base() const { return base_; }

 private:
  Pointer p_;
  const T* base_;
};

template <class T>
using SharedView = CheckedView<T, MemorySpace::shared>;
template <class T>
using VolatileSharedView = CheckedView<T, MemorySpace::shared, true>;
template <class T>
using GlobalView = CheckedView<T, MemorySpace::global>;

// The loads and atomics kernels call on global memory, for a checked view (found by argument-
// dependent lookup, so the kernel's text is the one it has with plain pointers). __ldcg is a
// checked read at the caller's line (a cache hint: it orders nothing); atomics are not checked as
// accesses (two atomics never race; an atomic and a plain access of one location are not looked
// for), only as the synchronisation they are across blocks (atomics.h).
template <class T>
inline T __ldcg(const CheckedView<T, MemorySpace::global>& p,
                std::source_location loc = std::source_location::current()) {
  return p[CheckedIndex(0, loc)];
}
template <class T, class V>
inline T atomicAdd(const CheckedView<T, MemorySpace::global>& p, V value,
                   std::source_location loc = std::source_location::current()) {
  return ::atomicAdd(p.get(), static_cast<T>(value), loc);
}

}  // namespace rl::sim
