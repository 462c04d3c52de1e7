#pragma once
// Axis ranges and tick positions for the line plot: a log2 x axis (sizes) and a linear y axis
// (GB/s) with "nice" steps. Pure functions, no ImGui, so they are unit-tested.
#include <string>
#include <vector>

namespace rl::viewer {

struct Tick {
  double value = 0;
  std::string label;
};

struct Axis {
  double lo = 0, hi = 1;
  bool log2 = false;
  // 0 at lo, 1 at hi (in log2 space for a log2 axis).
  double fraction(double v) const;
};

// Powers of two covering [lo, hi] (values > 0), at most about max_ticks of them: every k-th
// exponent. Labels "2^k".
std::vector<Tick> log2_ticks(double lo, double hi, int max_ticks);

// Multiples of 1, 2 or 5 x 10^k covering [lo, hi], at most about max_ticks.
std::vector<Tick> linear_ticks(double lo, double hi, int max_ticks);

// The step linear_ticks would use.
double nice_step(double span, int max_ticks);

// A y range from 0 to a nice value above `max_value` (at least 1).
Axis y_axis_for(double max_value, int max_ticks);
// An x range on whole powers of two around [min_n, max_n].
Axis x_axis_for(double min_n, double max_n);

}  // namespace rl::viewer
