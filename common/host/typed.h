#pragma once
// Typed reductions on the host side (lessons 18-21): which element types and operators exist, typed
// seeded input, and the CPU reference with a tolerance derived like reference.h's. Arrays are raw
// bytes here; element i of any type reads back as a double exactly (halves, bfloat16, int32,
// float).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/host/input.h"

namespace rl {

enum class DType { f32, f64, f16, bf16, i32 };
inline constexpr DType all_dtypes[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i32};
std::string_view to_string(DType t);  // "float32", "float64", "float16", "bfloat16", "int32"
std::optional<DType> parse_dtype(std::string_view name);
std::size_t dtype_bytes(DType t);
// Unit roundoff of the type the kernels accumulate in: float for f32/f16/bf16, double for f64,
// and 0 for int32, whose int64 sums are exact.
double accumulator_unit_roundoff(DType t);

enum class ReduceOp { sum, max, min, mean, variance, argmax, argmin };
inline constexpr ReduceOp all_ops[] = {ReduceOp::sum,   ReduceOp::max,      ReduceOp::min,
                                       ReduceOp::mean,  ReduceOp::variance, ReduceOp::argmax,
                                       ReduceOp::argmin};
std::string_view to_string(ReduceOp op);
std::optional<ReduceOp> parse_op(std::string_view name);
// --ops and --types of lessons 18-21: comma-separated names ("sum,argmax", "float32,float16"); an
// unknown name is a UsageError that names the option. No names, no entries.
std::vector<ReduceOp> parse_op_list(const std::string& text);
std::vector<DType> parse_dtype_list(const std::string& text);
bool has_index(ReduceOp op);     // argmax, argmin
bool allows_empty(ReduceOp op);  // only sum: the sum of nothing is 0

// Element i of a typed array, exactly, as a double; and a double stored rounded to nearest even
// (int32: the nearest integer, clamped).
double load_element(DType t, const std::byte* data, std::uint64_t i);
void store_element(DType t, std::byte* data, std::uint64_t i, double v);

// Values [first, first + n) of the seeded stream (input.h), rounded to the type; int32 takes
// round(1000 * x), so ties (equal values at different indices) are frequent.
void fill_typed(std::byte* out, DType t, std::uint64_t n, std::uint64_t seed, Distribution d,
                std::uint64_t first = 0);

// A typed reduction's answer, as the host reads it: the value (as a double) and, for argmax and
// argmin, the index.
struct OpValue {
  double value = 0.0;
  std::uint64_t index = 0;
};

struct OpReference {
  OpValue expected;
  // |got - expected| allowed; 0: must be exact (max, min, arg*, integer sums)
  double tolerance = 0.0;
};

// The reference in higher precision: long double sums (with sum |x| for the bound), exact extremes,
// Welford in long double for the variance. `depth` is the plan's longest chain of combines from one
// input to the result (see summation_depth); the tolerance is Higham's gamma(depth) bound in the
// accumulator's unit roundoff, scaled per operator (see typed.cpp). NaN anywhere follows the rule:
// sum, mean, variance expect NaN; max, min, argmax, argmin expect the (first) NaN.
OpReference typed_reference(ReduceOp op, DType t, const std::byte* data, std::uint64_t n,
                            std::uint64_t depth);
// NaN matches NaN; indices must be equal; values within the tolerance (infinities: equal).
bool matches(const OpReference& ref, const OpValue& got, ReduceOp op);

}  // namespace rl
