#pragma once
// Seeded input data for every lesson: never zeros (they hide unwritten outputs and wrong indexing),
// reproducible from (seed, distribution, n) alone, and fast enough to fill 8 GiB.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rl {

enum class Distribution {
  uniform,   // (-1, 1), zero excluded: sums cancel, as in real data
  positive,  // [0.5, 1.5): no cancellation, so a lost element moves the total visibly
  integers,  // whole numbers 1..8: every partial sum below 2^24 is exact, in any order
};

std::string_view to_string(Distribution d);
std::optional<Distribution> parse_distribution(std::string_view name);

// Value i of the stream (seed, d): a pure function of its arguments (counter-based hashing), so any
// slice can be made on any thread, and a failing case can be replayed from its seed.
float input_value(std::uint64_t seed, Distribution d, std::uint64_t i);

// Fills `out` with values [first, first + out.size()) of the stream, on several host threads when large.
void fill_input(std::span<float> out, std::uint64_t seed, Distribution d, std::uint64_t first = 0);

}  // namespace rl
