// What the kernels of hopper_kernels.cuh must compute, by plain loops on the host: the simulator's
// tests and the GPU's compare with these.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace hopper_test {

// cluster_sum: per cluster of `cluster` blocks of `block` threads, the sum of its elements.
inline std::vector<std::int64_t> cluster_sums(const std::vector<std::int64_t>& in,
                                              unsigned long long n, unsigned block,
                                              unsigned cluster) {
  const unsigned long long per = std::uint64_t{block} * cluster;
  std::vector<std::int64_t> sums(std::max<unsigned long long>(1, (n + per - 1) / per), 0);
  for (unsigned long long i = 0; i < n; ++i) sums[i / per] += in[i];
  return sums;
}

// doubles then sums_after: per block of `block` threads, the sum of twice its elements.
inline std::vector<float> doubled_block_sums(const std::vector<float>& in, unsigned block) {
  std::vector<float> sums((in.size() + block - 1) / block, 0.0f);
  for (std::size_t i = 0; i < in.size(); ++i) sums[i / block] += 2.0f * in[i];
  return sums;
}

// tile_reduce and warp_reduce: for thread t (its lane in `mask`), the sum, minimum and maximum over
// the threads of its group of `size` whose lanes are in `mask`, at 3 t, 3 t + 1, 3 t + 2. Entries
// of threads outside the mask keep `untouched`. Sums wrap as the element type does.
template <class T>
std::vector<T> group_reductions(const std::vector<T>& in, unsigned size, unsigned mask,
                                T untouched) {
  std::vector<T> out(3 * in.size(), untouched);
  const auto named = [mask](std::size_t t) { return (mask >> (t % 32) & 1u) != 0; };
  for (std::size_t t = 0; t < in.size(); ++t) {
    if (!named(t)) continue;
    T sum = 0, lo = in[t], hi = in[t];
    const std::size_t first = t / size * size;
    for (std::size_t u = first; u < first + size && u < in.size(); ++u) {
      if (!named(u)) continue;
      if constexpr (std::is_integral_v<T>)
        sum = static_cast<T>(static_cast<std::make_unsigned_t<T>>(sum) +
                             static_cast<std::make_unsigned_t<T>>(in[u]));
      else
        sum += in[u];
      lo = std::min(lo, in[u]);
      hi = std::max(hi, in[u]);
    }
    out[3 * t] = sum;
    out[3 * t + 1] = lo;
    out[3 * t + 2] = hi;
  }
  return out;
}

}  // namespace hopper_test
