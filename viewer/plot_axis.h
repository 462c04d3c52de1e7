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
// The range a plot draws: half a power of two beyond the extreme points on each side, so that no
// point sits on the frame.
Axis x_axis_padded(double min_n, double max_n);

// Where a plot of w x h px at (x, y) puts things: the plot area inside, 64 px at its left for the
// y tick labels, the y axis title above the area (not beside its top tick), the x tick labels and
// title below, and legend_w px at the right for the legend.
struct PlotFrame {
  float left = 0, right = 0, top = 0, bottom = 0;  // the plot area
  float y_title_x = 0, y_title_y = 0;              // top-left of the y axis title
  float x_ticks_y = 0, x_title_y = 0;              // tops of the x tick labels and of the x title
};
PlotFrame plot_frame(float x, float y, float w, float h, float legend_w);

// The box a y tick label of `label_w` px takes, right-aligned left of the area and centred on the
// tick at screen height y: {x0, y0, x1, y1}.
struct Box {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};
Box y_tick_label_box(const PlotFrame& f, float y, float label_w);
Box y_title_box(const PlotFrame& f, float title_w);

}  // namespace rl::viewer
