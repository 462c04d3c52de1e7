// Block barrier and memory fences as seen by kernel code.
#pragma once
#include <atomic>
#include <source_location>

#include "common/sim/runtime.h"

// The call site is recorded so that reports can say which barrier is meant.
inline void __syncthreads(std::source_location loc = std::source_location::current()) {
  rl::sim::detail::block_barrier(rl::sim::detail::BarrierOp::plain, 0, loc);
}
inline int __syncthreads_count(int predicate,
                               std::source_location loc = std::source_location::current()) {
  return rl::sim::detail::block_barrier(rl::sim::detail::BarrierOp::count, predicate, loc);
}
inline int __syncthreads_and(int predicate,
                             std::source_location loc = std::source_location::current()) {
  return rl::sim::detail::block_barrier(rl::sim::detail::BarrierOp::all, predicate, loc);
}
inline int __syncthreads_or(int predicate,
                            std::source_location loc = std::source_location::current()) {
  return rl::sim::detail::block_barrier(rl::sim::detail::BarrierOp::any, predicate, loc);
}

// Global/system fences order this host thread's accesses against other host threads. On sm_70 and
// later __threadfence() is a fence.sc at GPU scope (membar.gl); with checked accesses on, the race
// detector takes it as one: the acquire of the atomic reads before it and a release of what came
// before it (race_detector.h).
namespace rl::sim::detail {
inline void fence_sc(const std::source_location& loc) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (racecheck_requested) [[unlikely]]
    memory_fence(loc);
}
}  // namespace rl::sim::detail
inline void __threadfence(std::source_location loc = std::source_location::current()) {
  rl::sim::detail::count_fence(loc);
  rl::sim::detail::fence_sc(loc);
}
inline void __threadfence_system(std::source_location loc = std::source_location::current()) {
  __threadfence(loc);
}
// A block's threads all run on one host thread: a compiler fence is enough. At block scope it orders
// nothing for other blocks, so the race detector does not see it.
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }
