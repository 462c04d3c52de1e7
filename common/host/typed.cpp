#include "common/host/typed.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "common/half_bits.h"
#include "common/host/cli.h"
#include "common/host/parallel.h"

namespace rl {

std::string_view to_string(DType t) {
  switch (t) {
    case DType::f32:
      return "float32";
    case DType::f64:
      return "float64";
    case DType::f16:
      return "float16";
    case DType::bf16:
      return "bfloat16";
    case DType::i32:
      return "int32";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (const DType t : all_dtypes)
    if (to_string(t) == name) return t;
  return std::nullopt;
}

std::size_t dtype_bytes(DType t) {
  switch (t) {
    case DType::f64:
      return 8;
    case DType::f16:
    case DType::bf16:
      return 2;
    default:
      return 4;
  }
}

double accumulator_unit_roundoff(DType t) {
  switch (t) {
    case DType::f64:
      return 0x1p-53;
    case DType::i32:
      return 0.0;
    default:
      return 0x1p-24;  // float32, and the 16-bit types, which accumulate in float32
  }
}

std::string_view to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return "sum";
    case ReduceOp::max:
      return "max";
    case ReduceOp::min:
      return "min";
    case ReduceOp::mean:
      return "mean";
    case ReduceOp::variance:
      return "variance";
    case ReduceOp::argmax:
      return "argmax";
    case ReduceOp::argmin:
      return "argmin";
  }
  return "?";
}

std::optional<ReduceOp> parse_op(std::string_view name) {
  for (const ReduceOp op : all_ops)
    if (to_string(op) == name) return op;
  return std::nullopt;
}

namespace {
template <class E, class Parse>
std::vector<E> parse_names(const std::string& text, Parse parse, const char* option) {
  std::vector<E> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const auto v = parse(item);
    if (!v) throw UsageError(std::string("--") + option + ": unknown value '" + item + "'");
    out.push_back(*v);
  }
  return out;
}
}  // namespace

std::vector<ReduceOp> parse_op_list(const std::string& text) {
  return parse_names<ReduceOp>(text, parse_op, "ops");
}
std::vector<DType> parse_dtype_list(const std::string& text) {
  return parse_names<DType>(text, parse_dtype, "types");
}

bool has_index(ReduceOp op) { return op == ReduceOp::argmax || op == ReduceOp::argmin; }
bool allows_empty(ReduceOp op) { return op == ReduceOp::sum; }

double load_element(DType t, const std::byte* data, std::uint64_t i) {
  switch (t) {
    case DType::f32: {
      float v;
      std::memcpy(&v, data + 4 * i, 4);
      return v;
    }
    case DType::f64: {
      double v;
      std::memcpy(&v, data + 8 * i, 8);
      return v;
    }
    case DType::f16: {
      std::uint16_t b;
      std::memcpy(&b, data + 2 * i, 2);
      return half_bits_to_float(b);
    }
    case DType::bf16: {
      std::uint16_t b;
      std::memcpy(&b, data + 2 * i, 2);
      return bfloat16_bits_to_float(b);
    }
    case DType::i32: {
      std::int32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      return v;
    }
  }
  return 0.0;
}

void store_element(DType t, std::byte* data, std::uint64_t i, double v) {
  switch (t) {
    case DType::f32: {
      const auto f = static_cast<float>(v);
      std::memcpy(data + 4 * i, &f, 4);
      return;
    }
    case DType::f64:
      std::memcpy(data + 8 * i, &v, 8);
      return;
    // Through float: exact for every value the tests store (halves of floats), and the kernels'
    // own conversions start from float too.
    case DType::f16: {
      const auto b = float_to_half_bits(static_cast<float>(v));
      std::memcpy(data + 2 * i, &b, 2);
      return;
    }
    case DType::bf16: {
      const auto b = float_to_bfloat16_bits(static_cast<float>(v));
      std::memcpy(data + 2 * i, &b, 2);
      return;
    }
    case DType::i32: {
      constexpr double lo = std::numeric_limits<std::int32_t>::min(),
                       hi = std::numeric_limits<std::int32_t>::max();
      const auto k = static_cast<std::int32_t>(
          std::nearbyint(std::isnan(v) ? 0.0 : std::fmin(std::fmax(v, lo), hi)));
      std::memcpy(data + 4 * i, &k, 4);
      return;
    }
  }
}

void fill_typed(std::byte* out, DType t, std::uint64_t n, std::uint64_t seed, Distribution d,
                std::uint64_t first) {
  for_each_chunk(n, std::size_t{1} << 20, [&](std::size_t, std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      const double x = input_value(seed, d, first + i);
      store_element(t, out, i, t == DType::i32 ? 1000.0 * x : x);
    }
  });
}

namespace {

// gamma(k) = k u / (1 - k u): Higham's bound on k chained roundings; beyond 1 it bounds nothing.
double gamma(double k, double u) {
  const double ku = k * u;
  return ku < 1.0 ? ku / (1.0 - ku) : std::numeric_limits<double>::infinity();
}

OpReference extreme(const std::byte* data, DType t, std::uint64_t n, bool largest) {
  OpValue best{load_element(t, data, 0), 0};
  for (std::uint64_t i = 1; i < n && !std::isnan(best.value); ++i) {  // the first NaN is the answer
    const double v = load_element(t, data, i);
    // strict: ties keep the first
    if (std::isnan(v) || (largest ? v > best.value : v < best.value)) best = {v, i};
  }
  return {best, 0.0};
}

}  // namespace

OpReference typed_reference(ReduceOp op, DType t, const std::byte* data, std::uint64_t n,
                            std::uint64_t depth) {
  if (n == 0 && !allows_empty(op))
    throw std::invalid_argument(std::string(to_string(op)) + " of no elements");
  if (op == ReduceOp::max || op == ReduceOp::argmax) return extreme(data, t, n, true);
  if (op == ReduceOp::min || op == ReduceOp::argmin) return extreme(data, t, n, false);

  const double u = accumulator_unit_roundoff(t);
  const auto d = static_cast<double>(depth);
  if (op == ReduceOp::variance) {
    // Welford in long double: the exact-enough mean and M2. Chan et al.'s merges have relative
    // error O(depth u kappa), kappa = sqrt(sum x^2 / M2) the problem's condition number; 4
    // roundings a level (subtract, two multiplies, add). The second term bounds what the rounded
    // means leave in M2 (u^2).
    long double mean = 0.0L, m2 = 0.0L, squares = 0.0L;
    for (std::uint64_t i = 0; i < n; ++i) {
      const long double x = load_element(t, data, i);
      const long double delta = x - mean;
      mean += delta / static_cast<long double>(i + 1);
      m2 += delta * (x - mean);
      squares += x * x;
    }
    const double s = static_cast<double>(m2), q = static_cast<double>(squares),
                 var = s / static_cast<double>(n);
    const double g = gamma(4.0 * d, t == DType::i32 ? 0x1p-53 : u);  // int32's moments are doubles
    const double tol_m2 = g * std::sqrt(s * q) + g * g * q;
    return {{var, 0},
            tol_m2 / static_cast<double>(n) + std::fabs(var) * (t == DType::i32 ? 0x1p-53 : u)};
  }
  long double sum = 0.0L, abs_sum = 0.0L;
  for (std::uint64_t i = 0; i < n; ++i) {
    const long double x = load_element(t, data, i);
    sum += x;
    abs_sum += std::fabs(x);
  }
  // Sum: reference.h's bound, gamma(depth) sum|x| plus the result's last rounding; exact for int32.
  const double total = static_cast<double>(sum);
  const double tol_sum = gamma(d, u) * static_cast<double>(abs_sum) + std::fabs(total) * u;
  if (op == ReduceOp::sum) return {{total, 0}, tol_sum};
  // Mean: the sum's error over n, plus the division's rounding (in double for int32).
  const double mean = total / static_cast<double>(n);
  const double u_mean = t == DType::i32 ? 0x1p-53 : u;
  return {{mean, 0}, tol_sum / static_cast<double>(n) + 2.0 * std::fabs(mean) * u_mean};
}

bool matches(const OpReference& ref, const OpValue& got, ReduceOp op) {
  if (has_index(op) && got.index != ref.expected.index) return false;
  if (std::isnan(ref.expected.value) || std::isnan(got.value))
    return std::isnan(ref.expected.value) && std::isnan(got.value);
  if (std::isinf(ref.expected.value) || std::isinf(got.value))
    return ref.expected.value == got.value;
  return std::fabs(got.value - ref.expected.value) <= ref.tolerance;
}

}  // namespace rl
