// Warp collectives as seen by kernel code. Each call is a synchronisation point: the
// calling lane waits until every lane named in `mask` has arrived at the same kind of
// collective with the same mask; then the exchange happens and all of them go on.
#pragma once
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "common/sim/builtins.h"
#include "common/sim/runtime.h"

namespace rl::sim::detail {

template <class T>
std::uint64_t to_bits(T v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp shuffles move values of at most 8 bytes (int, unsigned, long long, float, "
                "double, ...)");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}

template <class T>
T from_bits(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

}  // namespace rl::sim::detail

inline void __syncwarp(unsigned mask = 0xffffffffu,
                       std::source_location loc = std::source_location::current()) {
  rl::sim::detail::warp_collective(rl::sim::detail::WarpOp::syncwarp, mask, 0, 0, warpSize, loc);
}

// Reading a lane that is not in `mask` (undefined in CUDA) yields all-one bits (NaN
// for float/double, -1 for signed integers).
template <class T>
inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,
                     std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_idx, mask, to_bits(var), srcLane, width, loc));
}

template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                        std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_up, mask, to_bits(var), delta, width, loc));
}

template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                          std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_down, mask, to_bits(var), delta, width, loc));
}

template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,
                         std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return from_bits<T>(warp_collective(WarpOp::shfl_xor, mask, to_bits(var), laneMask, width, loc));
}

inline unsigned __ballot_sync(unsigned mask, int predicate,
                              std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return static_cast<unsigned>(
      warp_collective(WarpOp::ballot, mask, predicate != 0, 0, warpSize, loc));
}

inline int __all_sync(unsigned mask, int predicate,
                      std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return static_cast<int>(warp_collective(WarpOp::all, mask, predicate != 0, 0, warpSize, loc));
}

inline int __any_sync(unsigned mask, int predicate,
                      std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return static_cast<int>(warp_collective(WarpOp::any, mask, predicate != 0, 0, warpSize, loc));
}

// Not a synchronisation point. Lanes of the caller's warp that have not exited (the
// simulator has no notion of converged sub-sets of lanes).
inline unsigned __activemask() { return rl::sim::detail::active_mask(); }

// Warp reductions of 32-bit integers (sm_80's redux.sync): every lane named in `mask` gets the sum
// (wrapping), minimum or maximum of their values.
inline unsigned __reduce_add_sync(unsigned mask, unsigned value,
                                  std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return static_cast<unsigned>(warp_collective(WarpOp::reduce_add, mask, value, 0, warpSize, loc));
}
inline int __reduce_add_sync(unsigned mask, int value,
                             std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return from_bits<int>(
      warp_collective(WarpOp::reduce_add, mask, to_bits(value), 1, warpSize, loc));
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned value,
                                  std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return static_cast<unsigned>(warp_collective(WarpOp::reduce_min, mask, value, 0, warpSize, loc));
}
inline int __reduce_min_sync(unsigned mask, int value,
                             std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return from_bits<int>(
      warp_collective(WarpOp::reduce_min, mask, to_bits(value), 1, warpSize, loc));
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned value,
                                  std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return static_cast<unsigned>(warp_collective(WarpOp::reduce_max, mask, value, 0, warpSize, loc));
}
inline int __reduce_max_sync(unsigned mask, int value,
                             std::source_location loc = std::source_location::current()) {
  using namespace rl::sim::detail;
  return from_bits<int>(
      warp_collective(WarpOp::reduce_max, mask, to_bits(value), 1, warpSize, loc));
}
