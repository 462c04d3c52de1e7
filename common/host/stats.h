#pragma once
// Summaries of repeated timings: the median is what we report, min and max show the spread.
#include <algorithm>
#include <vector>

namespace rl {

struct Summary {
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  std::size_t count = 0;
};

inline Summary summarize(std::vector<double> samples) {
  if (samples.empty()) return {};
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  const double median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return {median, samples.front(), samples.back(), n};
}

}  // namespace rl
