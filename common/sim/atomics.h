// CUDA atomics on the simulator: std::atomic_ref on the target, so they are atomic
// across the host threads that run different blocks. Relaxed ordering, as in CUDA;
// use __threadfence() to order other accesses around them.
#pragma once
#include <atomic>

namespace rl::sim::detail {

inline constexpr std::memory_order atomic_order = std::memory_order_relaxed;

template <class T>
inline T fetch_add(T* address, T val) {
  return std::atomic_ref<T>(*address).fetch_add(val, atomic_order);
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

template <class T>
inline T compare_swap(T* address, T compare, T val) {
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, val, atomic_order, atomic_order);
  return compare;  // holds the old value either way
}

}  // namespace rl::sim::detail

inline int atomicAdd(int* address, int val) { return rl::sim::detail::fetch_add(address, val); }
inline unsigned atomicAdd(unsigned* address, unsigned val) {
  return rl::sim::detail::fetch_add(address, val);
}
inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long val) {
  return rl::sim::detail::fetch_add(address, val);
}
inline float atomicAdd(float* address, float val) {
  return rl::sim::detail::fetch_add(address, val);
}
inline double atomicAdd(double* address, double val) {
  return rl::sim::detail::fetch_add(address, val);
}

inline int atomicSub(int* address, int val) {
  return std::atomic_ref<int>(*address).fetch_sub(val, rl::sim::detail::atomic_order);
}
inline unsigned atomicSub(unsigned* address, unsigned val) {
  return std::atomic_ref<unsigned>(*address).fetch_sub(val, rl::sim::detail::atomic_order);
}

#define RL_SIM_MINMAX(T)                                                                           \
  inline T atomicMax(T* address, T val) {                                                          \
    return rl::sim::detail::fetch_update(address, [val](T old) { return old < val ? val : old; }); \
  }                                                                                                \
  inline T atomicMin(T* address, T val) {                                                          \
    return rl::sim::detail::fetch_update(address, [val](T old) { return val < old ? val : old; }); \
  }
RL_SIM_MINMAX(int)
RL_SIM_MINMAX(unsigned)
RL_SIM_MINMAX(long long)
RL_SIM_MINMAX(unsigned long long)
#undef RL_SIM_MINMAX

inline int atomicCAS(int* address, int compare, int val) {
  return rl::sim::detail::compare_swap(address, compare, val);
}
inline unsigned atomicCAS(unsigned* address, unsigned compare, unsigned val) {
  return rl::sim::detail::compare_swap(address, compare, val);
}
inline unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                    unsigned long long val) {
  return rl::sim::detail::compare_swap(address, compare, val);
}

inline int atomicExch(int* address, int val) {
  return std::atomic_ref<int>(*address).exchange(val, rl::sim::detail::atomic_order);
}
inline unsigned atomicExch(unsigned* address, unsigned val) {
  return std::atomic_ref<unsigned>(*address).exchange(val, rl::sim::detail::atomic_order);
}
inline unsigned long long atomicExch(unsigned long long* address, unsigned long long val) {
  return std::atomic_ref<unsigned long long>(*address).exchange(val, rl::sim::detail::atomic_order);
}
inline float atomicExch(float* address, float val) {
  return std::atomic_ref<float>(*address).exchange(val, rl::sim::detail::atomic_order);
}

// CUDA's wrap rules: inc stores (old >= val) ? 0 : old + 1; dec stores
// (old == 0 || old > val) ? val : old - 1.
inline unsigned atomicInc(unsigned* address, unsigned val) {
  return rl::sim::detail::fetch_update(address,
                                       [val](unsigned old) { return old >= val ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* address, unsigned val) {
  return rl::sim::detail::fetch_update(
      address, [val](unsigned old) { return (old == 0 || old > val) ? val : old - 1; });
}

#define RL_SIM_BITWISE(T)                                                              \
  inline T atomicAnd(T* address, T val) {                                              \
    return std::atomic_ref<T>(*address).fetch_and(val, rl::sim::detail::atomic_order); \
  }                                                                                    \
  inline T atomicOr(T* address, T val) {                                               \
    return std::atomic_ref<T>(*address).fetch_or(val, rl::sim::detail::atomic_order);  \
  }                                                                                    \
  inline T atomicXor(T* address, T val) {                                              \
    return std::atomic_ref<T>(*address).fetch_xor(val, rl::sim::detail::atomic_order); \
  }
RL_SIM_BITWISE(int)
RL_SIM_BITWISE(unsigned)
RL_SIM_BITWISE(unsigned long long)
#undef RL_SIM_BITWISE
