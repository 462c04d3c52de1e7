#include "common/host/input.h"

#include "common/host/parallel.h"

namespace rl {
std::string_view to_string(Distribution d) {
  switch (d) {
    case Distribution::uniform:
      return "uniform";
    case Distribution::positive:
      return "positive";
    case Distribution::integers:
      return "integers";
    case Distribution::spikes:
      return "spikes";
  }
  return "?";
}

std::optional<Distribution> parse_distribution(std::string_view name) {
  for (auto d : {Distribution::uniform, Distribution::positive, Distribution::integers,
                 Distribution::spikes})
    if (name == to_string(d)) return d;
  return std::nullopt;
}

float input_value(std::uint64_t seed, Distribution d, std::uint64_t i) {
  return formula::value(formula::mix64(seed), d, i);
}

void fill_input(std::span<float> out, std::uint64_t seed, Distribution d, std::uint64_t first) {
  for_each_chunk(out.size(), std::size_t{1} << 22,
                 [&](std::size_t, std::size_t lo, std::size_t hi) {
                   for (std::size_t k = lo; k < hi; ++k) out[k] = input_value(seed, d, first + k);
                 });
}

void fill_run_input(std::span<float> out, std::uint64_t seed, Distribution d) {
  fill_input(out, seed, d);
  if (d == Distribution::spikes && !out.empty()) out.back() = 1.0f;
}

}  // namespace rl
