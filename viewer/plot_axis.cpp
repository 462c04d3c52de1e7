#include "viewer/plot_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rl::viewer {

double Axis::fraction(double v) const {
  if (log2) {
    const double a = std::log2(std::max(lo, 1e-300)), b = std::log2(std::max(hi, 1e-300));
    return b > a ? (std::log2(std::max(v, 1e-300)) - a) / (b - a) : 0.5;
  }
  return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}

std::vector<Tick> log2_ticks(double lo, double hi, int max_ticks) {
  std::vector<Tick> out;
  if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi)) return out;
  const int a = static_cast<int>(std::ceil(std::log2(lo) - 1e-9));
  const int b = static_cast<int>(std::floor(std::log2(hi) + 1e-9));
  const int count = b - a + 1;
  if (count <= 0) return out;
  const int every = std::max(1, (count + std::max(1, max_ticks) - 1) / std::max(1, max_ticks));
  for (int k = a; k <= b; ++k) {
    if ((k - a) % every != 0) continue;
    out.push_back({std::ldexp(1.0, k), "2^" + std::to_string(k)});
  }
  return out;
}

double nice_step(double span, int max_ticks) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / std::max(1, max_ticks);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * mag >= raw - 1e-12 * mag) return m * mag;
  }
  return 10 * mag;
}

std::vector<Tick> linear_ticks(double lo, double hi, int max_ticks) {
  std::vector<Tick> out;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  const double step = nice_step(hi - lo, max_ticks);
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (int i = 0; i < 1000; ++i) {
    const double v = first + i * step;
    if (v > hi + step * 1e-9) break;
    char buf[32];
    const double shown = std::abs(v) < step * 1e-6 ? 0.0 : v;
    if (step >= 1)
      std::snprintf(buf, sizeof buf, "%.0f", shown);
    else
      std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(std::ceil(-std::log10(step))), shown);
    out.push_back({shown, buf});
  }
  return out;
}

Axis y_axis_for(double max_value, int max_ticks) {
  const double top = std::max(1.0, max_value);
  const double step = nice_step(top, max_ticks);
  return {0.0, std::ceil(top / step - 1e-9) * step, false};
}

Axis x_axis_for(double min_n, double max_n) {
  const double lo = std::ldexp(1.0, static_cast<int>(std::floor(std::log2(std::max(1.0, min_n)))));
  double hi = std::ldexp(1.0, static_cast<int>(std::ceil(std::log2(std::max(1.0, max_n)))));
  if (hi <= lo) hi = lo * 2;
  return {lo, hi, true};
}

Axis x_axis_padded(double min_n, double max_n) {
  const double lo = std::max(1.0, min_n), hi = std::max(lo, max_n);
  return {lo / std::sqrt(2.0), hi * std::sqrt(2.0), true};
}

namespace {
constexpr float kLineH = 13.f;  // the default font's line
}

PlotFrame plot_frame(float x, float y, float w, float h, float legend_w) {
  PlotFrame f;
  f.left = x + 64.f;
  f.right = x + w - legend_w - 16.f;
  f.top = y + kLineH + 14.f;  // the y title sits above the area, clear of the top tick's label
  f.bottom = y + h - 40.f;
  f.y_title_x = x + 6.f;
  f.y_title_y = y + 4.f;
  f.x_ticks_y = f.bottom + 4.f;
  f.x_title_y = f.bottom + 20.f;
  return f;
}

Box y_tick_label_box(const PlotFrame& f, float y, float label_w) {
  return {f.left - label_w - 6.f, y - kLineH / 2, f.left - 6.f, y + kLineH / 2};
}

Box y_title_box(const PlotFrame& f, float title_w) {
  return {f.y_title_x, f.y_title_y, f.y_title_x + title_w, f.y_title_y + kLineH};
}

}  // namespace rl::viewer
