#pragma once
// The CPU reference every kernel is checked against: an accurate sum in double precision, and the
// tolerance a float32 reduction must meet, derived from N, the data and the summation's depth.
#include <cstdint>
#include <span>

#include "common/input_value.h"

namespace rl {

struct Reference {
  // the sum, accurate to about one double rounding (Neumaier, see reference.cpp)
  double sum = 0.0;
  double abs_sum = 0.0;  // sum of |x_i|: scales every rounding-error bound
  std::uint64_t n = 0;
  // Every value is a whole number and sum |x_i| <= 2^24: then every partial sum of any subset, in
  // any order, is a whole number of magnitude at most 2^24, which float32 holds exactly. `sum` is
  // exact, and so must a float32 reduction be: its tolerance is 0 (integer data up to 2^21
  // elements, spikes up to 2^32).
  bool exact = false;
};

// The largest sum |x_i| of whole numbers whose every partial sum float32 holds exactly.
inline constexpr double float32_exact_limit = 0x1p24;

// Neumaier-compensated double sum, split over host threads for large inputs.
Reference reference_sum(std::span<const float> values);

// The reference of values [first, first + count) of the input stream (seed, d)
// (common/host/input.h), made and summed a slice at a time: the whole input never needs to fit in
// host memory (used where the GPUs generate their input themselves).
Reference reference_of_stream(std::uint64_t seed, Distribution d, std::uint64_t first,
                              std::uint64_t count);

// Unit roundoff of float32: the relative error of one rounded addition.
inline constexpr double float32_unit_roundoff = 0x1p-24;

// The longest chain of float additions from one input to the final value, for a reduction that
// first adds `per_thread` elements one after another in each thread and then combines through a
// tree over n_leaves values: per_thread + ceil(log2(n_leaves)) + 1 (the +1 covers a final combine).
std::uint64_t summation_depth(std::uint64_t n_leaves, std::uint64_t per_thread);

// Higham's worst-case bound for any float32 summation whose longest path has `depth` additions:
// |computed - exact| <= gamma(depth) * sum|x_i|, gamma(d) = d*u / (1 - d*u); 0 when ref.exact. No
// magic constant: a result outside it cannot come from adding each input once in any order. The
// converse does not hold: the bound grows with N and the depth (at 2^28 uniform inputs it is
// thousands against a total of a few thousand), so a lost block hides inside it. Exact data
// (ref.exact) is what sees every lost or doubled element: see common/README.md, "What a pass proves".
double tolerance(const Reference& ref, std::uint64_t depth);

// True when `got` is within tolerance(ref, depth) of ref.sum (NaN never passes).
bool within_tolerance(double got, const Reference& ref, std::uint64_t depth);

}  // namespace rl
