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

// A whole number no larger in magnitude than the exact limit (so the int conversion is defined).
bool small_whole(float v) {
  return std::fabs(v) <= static_cast<float>(float32_exact_limit) &&
         static_cast<float>(static_cast<std::int32_t>(v)) == v;
}

Reference reduce_chunk(std::span<const float> values) {
  Compensated s;
  Compensated a;
  bool whole = true;
  for (float v : values) {
    s.add(v);
    a.add(std::fabs(static_cast<double>(v)));
    whole = whole && small_whole(v);
  }
  return {s.value(), a.value(), values.size(), whole};
}

// Parts of one input summed separately, combined: exact when every part is whole and the total is
// small. A part's `exact` is taken to say that its values are whole: true of reduce_chunk's parts,
// and of a combined part too, except one over the limit, which puts the total over the limit as
// well.
Reference combine(const std::vector<Reference>& parts) {
  Compensated s;
  Compensated a;
  bool whole = true;
  std::uint64_t n = 0;
  for (const auto& p : parts) {
    s.add(p.sum);
    a.add(p.abs_sum);
    whole = whole && p.exact;  // a part's `exact` says here only that its values are whole
    n += p.n;
  }
  return {s.value(), a.value(), n, whole && a.value() <= float32_exact_limit};
}

}  // namespace

Reference reference_sum(std::span<const float> values) {
  constexpr std::size_t chunk_floor = std::size_t{1} << 22;  // below this one thread is quickest
  std::vector<Reference> parts(chunk_count(values.size(), chunk_floor));
  for_each_chunk(values.size(), chunk_floor, [&](std::size_t c, std::size_t lo, std::size_t hi) {
    parts[c] = reduce_chunk(values.subspan(lo, hi - lo));
  });
  Reference r = combine(parts);
  r.n = values.size();
  return r;
}

Reference reference_of_stream(std::uint64_t seed, Distribution d, std::uint64_t first,
                              std::uint64_t count) {
  // 256 MiB at a time: enough to keep every core busy
  constexpr std::uint64_t slice = std::uint64_t{1} << 26;
  std::vector<float> values(static_cast<std::size_t>(std::min(count, slice)));
  std::vector<Reference> parts;
  for (std::uint64_t done = 0; done < count; done += slice) {
    const std::span<float> part(values.data(),
                                static_cast<std::size_t>(std::min(slice, count - done)));
    fill_input(part, seed, d, first + done);
    parts.push_back(reference_sum(part));
  }
  Reference r = combine(parts);
  r.n = count;
  return r;
}

std::uint64_t summation_depth(std::uint64_t n_leaves, std::uint64_t per_thread) {
  const std::uint64_t levels =
      n_leaves <= 1 ? 0 : static_cast<std::uint64_t>(std::bit_width(n_leaves - 1));
  return per_thread + levels + 1;
}

double tolerance(const Reference& ref, std::uint64_t depth) {
  if (ref.exact) return 0.0;  // every partial sum is exact: so must the result be
  const double du = static_cast<double>(depth) * float32_unit_roundoff;
  if (du >= 1.0) return ref.abs_sum;  // the bound says nothing finer than the magnitude itself
  // The float32 rounding of the inputs themselves is exact (they are floats), so gamma covers it
  // all; the extra float32 ulp of the result covers the final conversion of the total to float.
  const double result_ulp = std::fabs(ref.sum) * float32_unit_roundoff;
  return du / (1.0 - du) * ref.abs_sum + result_ulp;
}

bool within_tolerance(double got, const Reference& ref, std::uint64_t depth) {
  if (std::isnan(got)) return false;
  return std::fabs(got - ref.sum) <= tolerance(ref, depth);
}

}  // namespace rl
