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
