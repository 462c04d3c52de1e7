#pragma once
// Seeded input data for every lesson: never zeros (they hide unwritten outputs and wrong indexing),
// except the sparse exact `spikes`, reproducible from (seed, distribution, n) alone, and fast
// enough to fill 8 GiB.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/input_value.h"  // Distribution and the formula, shared with device code

namespace rl {

std::string_view to_string(Distribution d);
std::optional<Distribution> parse_distribution(std::string_view name);

// Value i of the stream (seed, d): a pure function of its arguments (counter-based hashing), so any
// slice can be made on any thread, and a failing case can be replayed from its seed.
float input_value(std::uint64_t seed, Distribution d, std::uint64_t i);

// Fills `out` with values [first, first + out.size()) of the stream, on several host threads when
// large.
void fill_input(std::span<float> out, std::uint64_t seed, Distribution d, std::uint64_t first = 0);

// Fills `out` with the whole input of a run: the stream's first out.size() values, and for spikes a
// 1 at the last element as well (if the phase did not put one there), so that a short last block
// holds a spike too: at n = 2^31 + 17 the last block's 17 elements would otherwise hold one 15
// times in 256.
void fill_run_input(std::span<float> out, std::uint64_t seed, Distribution d);

}  // namespace rl
