#include <stdexcept>
#include <string>
#include <utility>

#include "lessons/11_latency_and_roofline/chase.h"

namespace rl::latency {
namespace {

// splitmix64: a seeded stream of 64-bit numbers, the same on every platform.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<unsigned> chase_cycle(std::uint64_t lines, unsigned line_bytes, std::uint64_t seed) {
  const std::uint64_t stride = line_bytes / sizeof(unsigned);
  if (lines < 2 || stride == 0 || lines * stride > (std::uint64_t{1} << 32))
    throw std::invalid_argument("chase_cycle: " + std::to_string(lines) + " lines of " +
                                std::to_string(line_bytes) +
                                " bytes: need at least 2, and 4-byte indexes to reach them all");
  std::vector<unsigned> order(lines);
  for (std::uint64_t i = 0; i < lines; ++i) order[i] = static_cast<unsigned>(i);
  // Sattolo's algorithm (S. Sattolo, "An algorithm to generate a random cyclic permutation",
  // Information Processing Letters 22(6), 1986): swapping each place with a random place strictly
  // before it leaves i -> order[i] one cycle through all lines. (`% i` favours some places by less
  // than one part in 2^32.)
  std::uint64_t state = seed;
  for (std::uint64_t i = lines - 1; i > 0; --i) std::swap(order[i], order[next_random(state) % i]);
  std::vector<unsigned> next(lines * stride, 0);
  for (std::uint64_t i = 0; i < lines; ++i)
    next[i * stride] = static_cast<unsigned>(order[i] * stride);
  return next;
}

}  // namespace rl::latency
