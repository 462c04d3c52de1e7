#pragma once
// The input formula itself, callable from host code and from device code: the GPU can make the same
// values the host would (common/backends/gpu/generate.cuh), so a large input never crosses PCIe and
// the CPU reference can still be computed from the same formula. common/host/input.h wraps it.
#include <cstdint>

#if defined(__CUDACC__)
#define RL_HOST_DEVICE __host__ __device__  // a qualifier only nvcc knows: g++ must not see it
#else
#define RL_HOST_DEVICE
#endif

namespace rl {

enum class Distribution {
  uniform,   // (-1, 1), zero excluded: sums cancel, as in real data
  positive,  // [0.5, 1.5): no cancellation, so a lost element moves the total visibly
  integers,  // whole numbers 1..8: every partial sum below 2^24 is exact, in any order
  // A 1 at every 256th element (from a seeded phase), 0 elsewhere: any 256 consecutive elements
  // hold exactly one spike, and up to 2^32 elements every partial sum is a whole number of at most
  // 2^24, exact in float32 in any order. So the total is exact at every size, and a lost or doubled
  // run of 256 or more elements (a block's share, a GPU's share) moves it by at least 1. A run's
  // input (fill_run_input, common/host/input.h) adds a 1 at the last element, for a short last
  // block.
  spikes,
};

// The spacing of Distribution::spikes.
inline constexpr std::uint64_t spike_spacing = 256;

namespace formula {

// splitmix64's finaliser: a bijective mix, so distinct (seed, i) give independent-looking words.
RL_HOST_DEVICE constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Value i of the stream (seed, d) when mix64(seed) is already known: generators hoist it.
RL_HOST_DEVICE constexpr float value(std::uint64_t mixed_seed, Distribution d, std::uint64_t i) {
  // no hash needed
  if (d == Distribution::spikes) return (i + mixed_seed) % spike_spacing == 0 ? 1.0f : 0.0f;
  const std::uint64_t bits = mix64(mixed_seed ^ i);
  switch (d) {
    case Distribution::uniform: {
      // magnitude in [2^-24, 1): the +1 keeps it off zero; the low bit picks the sign
      const float magnitude = static_cast<float>((bits >> 40) + 1) * 0x1p-24f;
      return (bits & 1u) ? -magnitude : magnitude;
    }
    // 24 random bits as a float in [0, 1): exactly representable, so every value is a float by
    // design
    case Distribution::positive:
      return 0.5f + static_cast<float>(bits >> 40) * 0x1p-24f;
    case Distribution::integers:
      return static_cast<float>(1 + (bits >> 61));
    case Distribution::spikes:
      break;  // above
  }
  return 1.0f;
}

}  // namespace formula
}  // namespace rl
