#include <catch2/catch.hpp>
#include <cmath>

#include "viewer/plot_axis.h"

using namespace rl::viewer;

TEST_CASE("log2 ticks are powers of two inside the range, thinned to the budget", "[axis]") {
  const auto t = log2_ticks(1024, 268435456, 30);
  REQUIRE(t.size() == 19);
  REQUIRE(t.front().value == 1024);
  REQUIRE(t.front().label == "2^10");
  REQUIRE(t.back().label == "2^28");
  const auto thin = log2_ticks(1024, 268435456, 5);
  REQUIRE(thin.size() <= 5);
  REQUIRE(thin.size() >= 3);
  REQUIRE(thin[1].value / thin[0].value == std::pow(2.0, std::log2(thin[1].value / thin[0].value)));
  REQUIRE(log2_ticks(0, 10, 5).empty());
  REQUIRE(log2_ticks(10, 1, 5).empty());
}

TEST_CASE("linear ticks use 1-2-5 steps and cover the range", "[axis]") {
  REQUIRE(nice_step(3000, 6) == 500);
  REQUIRE(nice_step(10, 5) == 2);
  REQUIRE(nice_step(0.9, 9) == Approx(0.1));
  const auto t = linear_ticks(0, 3500, 8);
  REQUIRE(t.front().value == 0);
  REQUIRE(t.back().value == 3500);
  REQUIRE(t[1].label == "500");
  REQUIRE(linear_ticks(1, 1, 5).empty());
  REQUIRE(linear_ticks(0, NAN, 5).empty());
}

TEST_CASE("axes: fractions on a log2 and a linear axis", "[axis]") {
  const Axis x = x_axis_for(1500, 1 << 20);
  REQUIRE(x.lo == 1024);
  REQUIRE(x.hi == 1 << 20);
  REQUIRE(x.fraction(1024) == 0);
  REQUIRE(x.fraction(1 << 20) == 1);
  REQUIRE(x.fraction(32768) == Approx(0.5));
  const Axis y = y_axis_for(3352, 8);
  REQUIRE(y.lo == 0);
  REQUIRE(y.hi >= 3352);
  REQUIRE(y.hi == 3500);
  REQUIRE(y.fraction(1750) == Approx(0.5));
}

TEST_CASE("no point on the frame: the x range reaches half a power of two past the extremes",
          "[axis]") {
  for (auto [lo, hi] : {std::pair{1024.0, 268435456.0}, std::pair{1073741824.0, 2147483648.0},
                        std::pair{1.0, 2.0}}) {
    const Axis x = x_axis_padded(lo, hi);
    REQUIRE(x.fraction(lo) > 0.02);
    REQUIRE(x.fraction(hi) < 0.98);
    REQUIRE(!log2_ticks(x.lo, x.hi, 30).empty());
  }
}

TEST_CASE("the y title sits clear of every y tick label", "[axis]") {
  const PlotFrame f = plot_frame(0, 0, 1000, 600, 200);
  const Box title = y_title_box(f, 4 * 7.f);  // "GB/s"
  for (const auto& t : linear_ticks(0, 10000, 8)) {
    const float y = f.bottom - static_cast<float>(t.value / 10000.0) * (f.bottom - f.top);
    const Box label = y_tick_label_box(f, y, 7.f * static_cast<float>(t.label.size()));
    REQUIRE(!title.overlaps(label));
  }
  REQUIRE(f.top > f.y_title_y);
}
