#include "common/host/input.h"

#include "common/host/parallel.h"

namespace rl {
namespace {

// splitmix64's finaliser: a bijective mix, so distinct (seed, i) give independent-looking words.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// 24 random bits as a float in [0, 1): exactly representable, so every value is a float by design.
constexpr float unit_float(std::uint64_t bits) { return static_cast<float>(bits >> 40) * 0x1p-24f; }

}  // namespace

std::string_view to_string(Distribution d) {
  switch (d) {
    case Distribution::uniform: return "uniform";
    case Distribution::positive: return "positive";
    case Distribution::integers: return "integers";
  }
  return "?";
}

std::optional<Distribution> parse_distribution(std::string_view name) {
  for (auto d : {Distribution::uniform, Distribution::positive, Distribution::integers})
    if (name == to_string(d)) return d;
  return std::nullopt;
}

float input_value(std::uint64_t seed, Distribution d, std::uint64_t i) {
  const std::uint64_t bits = mix64(mix64(seed) ^ i);
  switch (d) {
    case Distribution::uniform: {
      // magnitude in [2^-24, 1): the +1 keeps it off zero; the low bit picks the sign
      const float magnitude = static_cast<float>((bits >> 40) + 1) * 0x1p-24f;
      return (bits & 1u) ? -magnitude : magnitude;
    }
    case Distribution::positive: return 0.5f + unit_float(bits);
    case Distribution::integers: return static_cast<float>(1 + (bits >> 61));
  }
  return 1.0f;
}

void fill_input(std::span<float> out, std::uint64_t seed, Distribution d, std::uint64_t first) {
  for_each_chunk(out.size(), std::size_t{1} << 22, [&](std::size_t, std::size_t lo, std::size_t hi) {
    for (std::size_t k = lo; k < hi; ++k) out[k] = input_value(seed, d, first + k);
  });
}

}  // namespace rl
