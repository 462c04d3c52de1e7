// libcu++'s cuda::atomic_ref on the simulator (what <cuda/atomic> declares, for the operations a
// reduction's finish uses: load and the read-modify-writes; names and signatures as in CUDA 13):
//
//   cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*count);
//   const unsigned taken = ticket.fetch_add(1, cuda::memory_order_acq_rel);
//
// The operation itself is a relaxed std::atomic_ref on the host, atomic across the host threads
// that run blocks. Its memory order reaches the race detector as the fence it implies on each side
// (the PTX ISA's memory model: a release or acquire operation orders as a fence of that kind
// beside a relaxed one): an operation that releases (release, acq_rel, seq_cst) as a __threadfence()
// before it, one that acquires (acquire, consume, acq_rel, seq_cst) as a __threadfence() after it.
// Their scope decides whether other blocks see them: at block or thread scope nothing is ordered
// across blocks. The detector's fence is a fence.sc, so an acquire-only operation also releases
// what came before it: there the model may miss a race, never report a false one. A plain store,
// which would start a new release sequence, is not provided: the model's sequences are continued
// only by read-modify-writes.
#pragma once
#include <atomic>
#include <source_location>
#include <type_traits>

#include "common/sim/atomics.h"
#include "common/sim/sync.h"
#include "common/sim/thread_scope.h"

namespace cuda {

using ::std::memory_order;
using ::std::memory_order_acq_rel;
using ::std::memory_order_acquire;
using ::std::memory_order_consume;
using ::std::memory_order_relaxed;
using ::std::memory_order_release;
using ::std::memory_order_seq_cst;

template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref {
  static_assert(::std::is_integral_v<T> || ::std::is_floating_point_v<T>,
                "the simulator's cuda::atomic_ref holds integers and floating-point values");

 public:
  explicit atomic_ref(T& object) : p_(&object) {}

  T load(memory_order order = memory_order_seq_cst,
         ::std::source_location loc = ::std::source_location::current()) const {
    const T value = rl::sim::detail::tracked(
        p_, "cuda::atomic_ref::load", loc,
        [&] { return ::std::atomic_ref<T>(*p_).load(::std::memory_order_relaxed); },
        [](const T&) { return false; });  // a load writes nothing: it continues no sequence
    after(order, loc);
    return value;
  }
  T fetch_add(T v, memory_order order = memory_order_seq_cst,
              ::std::source_location loc = ::std::source_location::current()) const {
    return rmw("cuda::atomic_ref::fetch_add", order, loc,
               [&] { return ::std::atomic_ref<T>(*p_).fetch_add(v, ::std::memory_order_relaxed); });
  }
  T fetch_sub(T v, memory_order order = memory_order_seq_cst,
              ::std::source_location loc = ::std::source_location::current()) const {
    return rmw("cuda::atomic_ref::fetch_sub", order, loc,
               [&] { return ::std::atomic_ref<T>(*p_).fetch_sub(v, ::std::memory_order_relaxed); });
  }
  T exchange(T v, memory_order order = memory_order_seq_cst,
             ::std::source_location loc = ::std::source_location::current()) const {
    return rmw("cuda::atomic_ref::exchange", order, loc,
               [&] { return ::std::atomic_ref<T>(*p_).exchange(v, ::std::memory_order_relaxed); });
  }

 private:
  // Whether an order releases before, or acquires after, the operation it is given to.
  static constexpr bool releases(memory_order o) {
    return o == memory_order_release || o == memory_order_acq_rel || o == memory_order_seq_cst;
  }
  static constexpr bool acquires(memory_order o) {
    return o == memory_order_acquire || o == memory_order_consume || o == memory_order_acq_rel ||
           o == memory_order_seq_cst;
  }
  // Blocks are ordered only by scopes that hold them all.
  static constexpr bool across_blocks =
      Scope == thread_scope_system || Scope == thread_scope_device || Scope == thread_scope_cluster;

  void before(memory_order o, const ::std::source_location& loc) const {
    if (across_blocks && releases(o)) rl::sim::detail::fence_sc(loc);
  }
  void after(memory_order o, const ::std::source_location& loc) const {
    if (across_blocks && acquires(o)) rl::sim::detail::fence_sc(loc);
  }
  template <class Op>
  T rmw(const char* name, memory_order order, const ::std::source_location& loc, Op op) const {
    before(order, loc);
    const T old = rl::sim::detail::tracked(p_, name, loc, op);
    after(order, loc);
    return old;
  }

  T* p_;
};

}  // namespace cuda
