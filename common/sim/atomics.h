// CUDA atomics on the simulator: std::atomic_ref on the target, so they are atomic across the host
// threads that run different blocks. Relaxed ordering, as in CUDA (atomicAdd and its kin are
// relaxed read-modify-writes at GPU scope); __threadfence() orders other accesses around them.
//
// With checked accesses on (race checking or late visibility), each atomic also reaches the race
// detector as the synchronisation it is across blocks: its read may acquire, at the next fence,
// what the writes before it released, and its write carries the release that happens before it
// (race_detector.h). The call site is recorded for reports.
#pragma once
#include <atomic>
#include <source_location>

#include "common/sim/runtime.h"

namespace rl::sim::detail {

inline constexpr std::memory_order atomic_order = std::memory_order_relaxed;

// Runs `op` (which returns the old value) as the atomic `name` on `address`, told to the race
// detector when it is on. `wrote(old)`: whether the operation wrote (a compare-and-swap that fails
// only reads).
template <class T, class Op, class Wrote>
inline T tracked(T* address, const char* name, const std::source_location& loc, Op op,
                 Wrote wrote) {
  if (!racecheck_requested) [[likely]]
    return op();
  atomic_begin(address);
  const T old = op();
  atomic_end(address, name, wrote(old), loc);
  return old;
}

template <class T, class Op>
inline T tracked(T* address, const char* name, const std::source_location& loc, Op op) {
  return tracked(address, name, loc, op, [](const T&) { return true; });
}

// Applies new = f(old) atomically; returns old.
template <class T, class F>
inline T fetch_update(T* address, F f) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load(atomic_order);
  while (!ref.compare_exchange_weak(old, f(old), atomic_order, atomic_order)) {
  }
  return old;
}

}  // namespace rl::sim::detail

template <class T>
inline T rl_sim_atomic_add(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicAdd", loc, [&] {
    return std::atomic_ref<T>(*address).fetch_add(val, rl::sim::detail::atomic_order);
  });
}
inline int atomicAdd(int* address, int val,
                     std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_add(address, val, loc);
}
inline unsigned atomicAdd(unsigned* address, unsigned val,
                          std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_add(address, val, loc);
}
inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long val,
                                    std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_add(address, val, loc);
}
inline float atomicAdd(float* address, float val,
                       std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_add(address, val, loc);
}
inline double atomicAdd(double* address, double val,
                        std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_add(address, val, loc);
}

template <class T>
inline T rl_sim_atomic_sub(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicSub", loc, [&] {
    return std::atomic_ref<T>(*address).fetch_sub(val, rl::sim::detail::atomic_order);
  });
}
inline int atomicSub(int* address, int val,
                     std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_sub(address, val, loc);
}
inline unsigned atomicSub(unsigned* address, unsigned val,
                          std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_sub(address, val, loc);
}

template <class T>
inline T rl_sim_atomic_max(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicMax", loc, [&] {
    return rl::sim::detail::fetch_update(address, [val](T old) { return old < val ? val : old; });
  });
}
template <class T>
inline T rl_sim_atomic_min(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicMin", loc, [&] {
    return rl::sim::detail::fetch_update(address, [val](T old) { return val < old ? val : old; });
  });
}
inline int atomicMax(int* a, int v, std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_max(a, v, loc);
}
inline unsigned atomicMax(unsigned* a, unsigned v,
                          std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_max(a, v, loc);
}
inline long long atomicMax(long long* a, long long v,
                           std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_max(a, v, loc);
}
inline unsigned long long atomicMax(unsigned long long* a, unsigned long long v,
                                    std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_max(a, v, loc);
}
inline int atomicMin(int* a, int v, std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_min(a, v, loc);
}
inline unsigned atomicMin(unsigned* a, unsigned v,
                          std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_min(a, v, loc);
}
inline long long atomicMin(long long* a, long long v,
                           std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_min(a, v, loc);
}
inline unsigned long long atomicMin(unsigned long long* a, unsigned long long v,
                                    std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_min(a, v, loc);
}

// A compare-and-swap that fails only reads: it continues no release sequence and carries none.
template <class T>
inline T rl_sim_atomic_cas(T* address, T compare, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(
      address, "atomicCAS", loc,
      [&] {
        T old = compare;
        std::atomic_ref<T>(*address).compare_exchange_strong(
            old, val, rl::sim::detail::atomic_order, rl::sim::detail::atomic_order);
        return old;  // holds the old value either way
      },
      [&](const T& old) { return old == compare; });
}
inline int atomicCAS(int* address, int compare, int val,
                     std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_cas(address, compare, val, loc);
}
inline unsigned atomicCAS(unsigned* address, unsigned compare, unsigned val,
                          std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_cas(address, compare, val, loc);
}
inline unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                    unsigned long long val,
                                    std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_cas(address, compare, val, loc);
}

template <class T>
inline T rl_sim_atomic_exch(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicExch", loc, [&] {
    return std::atomic_ref<T>(*address).exchange(val, rl::sim::detail::atomic_order);
  });
}
inline int atomicExch(int* address, int val,
                      std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_exch(address, val, loc);
}
inline unsigned atomicExch(unsigned* address, unsigned val,
                           std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_exch(address, val, loc);
}
inline unsigned long long atomicExch(unsigned long long* address, unsigned long long val,
                                     std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_exch(address, val, loc);
}
inline float atomicExch(float* address, float val,
                        std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_exch(address, val, loc);
}

// CUDA's wrap rules: inc stores (old >= val) ? 0 : old + 1; dec stores
// (old == 0 || old > val) ? val : old - 1.
inline unsigned atomicInc(unsigned* address, unsigned val,
                          std::source_location loc = std::source_location::current()) {
  return rl::sim::detail::tracked(address, "atomicInc", loc, [&] {
    return rl::sim::detail::fetch_update(address,
                                         [val](unsigned old) { return old >= val ? 0u : old + 1; });
  });
}
inline unsigned atomicDec(unsigned* address, unsigned val,
                          std::source_location loc = std::source_location::current()) {
  return rl::sim::detail::tracked(address, "atomicDec", loc, [&] {
    return rl::sim::detail::fetch_update(
        address, [val](unsigned old) { return (old == 0 || old > val) ? val : old - 1; });
  });
}

template <class T>
inline T rl_sim_atomic_and(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicAnd", loc, [&] {
    return std::atomic_ref<T>(*address).fetch_and(val, rl::sim::detail::atomic_order);
  });
}
template <class T>
inline T rl_sim_atomic_or(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicOr", loc, [&] {
    return std::atomic_ref<T>(*address).fetch_or(val, rl::sim::detail::atomic_order);
  });
}
template <class T>
inline T rl_sim_atomic_xor(T* address, T val, const std::source_location& loc) {
  return rl::sim::detail::tracked(address, "atomicXor", loc, [&] {
    return std::atomic_ref<T>(*address).fetch_xor(val, rl::sim::detail::atomic_order);
  });
}
inline int atomicAnd(int* a, int v, std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_and(a, v, loc);
}
inline unsigned atomicAnd(unsigned* a, unsigned v,
                          std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_and(a, v, loc);
}
inline unsigned long long atomicAnd(unsigned long long* a, unsigned long long v,
                                    std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_and(a, v, loc);
}
inline int atomicOr(int* a, int v, std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_or(a, v, loc);
}
inline unsigned atomicOr(unsigned* a, unsigned v,
                         std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_or(a, v, loc);
}
inline unsigned long long atomicOr(unsigned long long* a, unsigned long long v,
                                   std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_or(a, v, loc);
}
inline int atomicXor(int* a, int v, std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_xor(a, v, loc);
}
inline unsigned atomicXor(unsigned* a, unsigned v,
                          std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_xor(a, v, loc);
}
inline unsigned long long atomicXor(unsigned long long* a, unsigned long long v,
                                    std::source_location loc = std::source_location::current()) {
  return rl_sim_atomic_xor(a, v, loc);
}
