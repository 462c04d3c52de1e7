#include "common/host/reference.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "common/host/input.h"
#include "common/host/parallel.h"

namespace rl {
namespace {

// Neumaier's variant of Kahan summation: keeps the low-order bits each addition drops in `carry`,
// also when the new term is larger than the running sum.
struct Compensated {
  double sum = 0.0;
  double carry = 0.0;
  void add(double x) {
    const double t = sum + x;
    carry += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  double value() const { return sum + carry; }
};

Reference reduce_chunk(std::span<const float> values) {
  Compensated s;
  Compensated a;
  for (float v : values) {
    s.add(v);
    a.add(std::fabs(static_cast<double>(v)));
  }
  return {s.value(), a.value(), values.size()};
}

}  // namespace

Reference reference_sum(std::span<const float> values) {
  constexpr std::size_t chunk_floor = std::size_t{1} << 22;  // below this one thread is quickest
  std::vector<Reference> parts(chunk_count(values.size(), chunk_floor));
  for_each_chunk(values.size(), chunk_floor, [&](std::size_t c, std::size_t lo, std::size_t hi) {
    parts[c] = reduce_chunk(values.subspan(lo, hi - lo));
  });
  Compensated s;
  Compensated a;
  for (const auto& p : parts) {
    s.add(p.sum);
    a.add(p.abs_sum);
  }
  return {s.value(), a.value(), values.size()};
}

Reference reference_of_stream(std::uint64_t seed, Distribution d, std::uint64_t first, std::uint64_t count) {
  constexpr std::uint64_t slice = std::uint64_t{1} << 26;  // 256 MiB at a time: enough to keep every core busy
  std::vector<float> values(static_cast<std::size_t>(std::min(count, slice)));
  Compensated s;
  Compensated a;
  for (std::uint64_t done = 0; done < count; done += slice) {
    const std::span<float> part(values.data(), static_cast<std::size_t>(std::min(slice, count - done)));
    fill_input(part, seed, d, first + done);
    const Reference r = reference_sum(part);
    s.add(r.sum);
    a.add(r.abs_sum);
  }
  return {s.value(), a.value(), count};
}

std::uint64_t summation_depth(std::uint64_t n_leaves, std::uint64_t per_thread) {
  const std::uint64_t levels = n_leaves <= 1 ? 0 : static_cast<std::uint64_t>(std::bit_width(n_leaves - 1));
  return per_thread + levels + 1;
}

double tolerance(const Reference& ref, std::uint64_t depth) {
  const double du = static_cast<double>(depth) * float32_unit_roundoff;
  if (du >= 1.0) return ref.abs_sum;  // the bound says nothing finer than the magnitude itself
  // The float32 rounding of the inputs themselves is exact (they are floats), so gamma covers it all;
  // the extra float32 ulp of the result covers the final conversion of the total to float.
  const double result_ulp = std::fabs(ref.sum) * float32_unit_roundoff;
  return du / (1.0 - du) * ref.abs_sum + result_ulp;
}

bool within_tolerance(double got, const Reference& ref, std::uint64_t depth) {
  if (std::isnan(got)) return false;
  return std::fabs(got - ref.sum) <= tolerance(ref, depth);
}

}  // namespace rl
