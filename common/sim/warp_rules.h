// Pure lane arithmetic of the shuffles (PTX shfl.sync semantics as CUDA uses them).
#pragma once
#include <cstdint>

#include "common/sim/runtime.h"

namespace rl::sim::detail {

inline constexpr std::uint64_t shuffle_poison = ~std::uint64_t{0};

constexpr bool valid_shuffle_width(int width) {
  return width >= 1 && width <= 32 && (width & (width - 1)) == 0;
}

// Lane whose value `lane` receives. The warp is cut into sub-groups of `width` lanes.
// idx:  lane srcLane mod width of the own sub-group;
// up:   lane - delta, or the own lane if that leaves the sub-group downwards;
// down: lane + delta, or the own lane if that leaves the sub-group upwards;
// xor:  lane ^ laneMask, or the own lane if that lies in a LATER sub-group (earlier
//       sub-groups may be read, as CUDA documents).
constexpr unsigned shuffle_source(WarpOp op, unsigned lane, std::int64_t arg, int width) {
  const unsigned w = static_cast<unsigned>(width);
  const unsigned first = lane & ~(w - 1);
  const unsigned last = first + w - 1;
  switch (op) {
    case WarpOp::shfl_idx:
      return first + (static_cast<unsigned>(arg) & (w - 1));
    case WarpOp::shfl_up: {
      const std::uint64_t delta = static_cast<std::uint32_t>(arg);
      return delta <= lane - first ? static_cast<unsigned>(lane - delta) : lane;
    }
    case WarpOp::shfl_down: {
      const std::uint64_t delta = static_cast<std::uint32_t>(arg);
      return delta <= last - lane ? static_cast<unsigned>(lane + delta) : lane;
    }
    case WarpOp::shfl_xor: {
      const std::uint32_t j = lane ^ static_cast<std::uint32_t>(arg);
      return j <= last ? j : lane;
    }
    default:
      return lane;
  }
}

}  // namespace rl::sim::detail
