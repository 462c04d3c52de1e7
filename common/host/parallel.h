#pragma once
// Splits [0, size) into contiguous chunks over the host's cores; small ranges stay on one thread.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace rl {

// Calls fn(chunk_index, lo, hi) for each chunk and returns the number of chunks used. Chunks are
// at least `floor` long, so tiny inputs don't pay for threads they cannot use.
template <class Fn>
std::size_t for_each_chunk(std::size_t size, std::size_t floor, Fn&& fn) {
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t chunks =
      std::min(hw, std::max<std::size_t>(1, size / std::max<std::size_t>(floor, 1)));
  if (chunks == 1) {
    fn(std::size_t{0}, std::size_t{0}, size);
    return 1;
  }
  const std::size_t step = (size + chunks - 1) / chunks;
  std::vector<std::thread> pool;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t lo = std::min(size, c * step);
    pool.emplace_back([&fn, c, lo, hi = std::min(size, lo + step)] { fn(c, lo, hi); });
  }
  for (auto& t : pool) t.join();
  return chunks;
}

// How many chunks for_each_chunk will use for this size: lets callers size per-chunk results first.
inline std::size_t chunk_count(std::size_t size, std::size_t floor) {
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  return std::min(hw, std::max<std::size_t>(1, size / std::max<std::size_t>(floor, 1)));
}

}  // namespace rl
