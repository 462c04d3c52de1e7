// Lesson 21's plan: the hand-checked layouts of axes_plan_cases() (merging, stride order, size-1,
// size-0 and broadcast axes, the strategy: the list `21_any_axes --grade` checks too), the plan's
// other numbers on some of them, and every kind of bad input as a usage error.
#include <catch2/catch.hpp>

#include <string>

#include "common/host/cli.h"
#include "lessons/21_any_axes/axes_cases.h"
#include "lessons/21_any_axes/axes_plan.h"
#include "tests/lessons/checks.h"

using namespace rl;

namespace {

AxesPlan contiguous(const std::vector<std::int64_t>& sizes, const std::vector<int>& axes) {
  return plan_axes(sizes, contiguous_strides(sizes), axes);
}

}  // namespace

TEST_CASE("lesson 21 plan: every graded layout merges and orders as checked by hand",
          "[host][axes]") {
  const PlanCase c = GENERATE(from_range(axes_plan_cases()));
  test::check_no_failure(describe(c.layout), plan_case_failure(c));
}

TEST_CASE("lesson 21 plan: the benchmark tensor's outputs, reductions and span", "[host][axes]") {
  const std::vector<std::int64_t> shape{64, 128, 64, 128};
  const AxesPlan a02 = contiguous(shape, {0, 2});
  CHECK(a02.outputs == 16384);
  CHECK(a02.reduced == 4096);
  CHECK(a02.out_shape == std::vector<std::uint64_t>{128, 128});
  CHECK(contiguous(shape, {1, 3}).outputs == 4096);
  const AxesPlan a3 = contiguous(shape, {3});
  CHECK(a3.outputs == 524288);
  CHECK(a3.reduced == 128);
  CHECK(contiguous(shape, {0}).input_span == std::uint64_t{1} << 26);
}

TEST_CASE("lesson 21 plan: all axes and no axes", "[host][axes]") {
  const AxesPlan all = contiguous({4, 5, 6}, {0, 1, 2});
  CHECK(all.outputs == 1);
  CHECK(all.out_shape.empty());
  // No axes: every output is one element, an identity per element (a copy, for sum).
  const AxesPlan none = contiguous({4, 5, 6}, {});
  CHECK(none.reduced == 1);
  CHECK(none.outputs == 120);
  // The order axes are named in does not matter.
  CHECK(merged_text(contiguous({4, 5, 6}, {2, 0})) == merged_text(contiguous({4, 5, 6}, {0, 2})));
}

TEST_CASE("lesson 21 plan: size-1 axes keep their place in the output's shape", "[host][axes]") {
  CHECK(contiguous({4, 1, 5}, {0, 2}).out_shape == std::vector<std::uint64_t>{1});
  const AxesPlan ones = contiguous({1, 1, 1}, {0, 2});
  CHECK(ones.axes.empty());
  CHECK(ones.outputs == 1);
  CHECK(ones.reduced == 1);
  CHECK(ones.describe().find("a single element") != std::string::npos);
}

TEST_CASE("lesson 21 plan: the span of transposed and padded layouts", "[host][axes]") {
  CHECK(plan_axes({2, 3, 4}, {1, 8, 2}, {0}).input_span == 24);
  CHECK(plan_axes({8, 16}, {20, 1}, {1}).input_span == 7 * 20 + 16);
}

TEST_CASE("lesson 21 plan: rank 8", "[host][axes]") {
  const AxesPlan alternate = contiguous(std::vector<std::int64_t>(8, 2), {1, 3, 5, 7});
  CHECK(alternate.axes.size() == 8);
  CHECK(alternate.outputs == 16);
  CHECK(alternate.reduced == 16);
}

TEST_CASE("lesson 21 plan: size-0 axes", "[host][axes]") {
  // Nothing to reduce: every output is the operator's value of nothing (sum: 0).
  const AxesPlan empty_reduction = contiguous({3, 0, 4}, {1});
  CHECK(empty_reduction.reduced == 0);
  CHECK(empty_reduction.outputs == 12);
  CHECK(empty_reduction.input_span == 0);
  // No outputs: nothing to do at all.
  const AxesPlan no_outputs = contiguous({3, 0, 4}, {0});
  CHECK(no_outputs.outputs == 0);
  CHECK(no_outputs.axes.empty());
}

TEST_CASE("lesson 21 plan: bad input is a usage error", "[host][axes]") {
  CHECK_THROWS_AS(plan_axes({}, {}, {}), UsageError);
  CHECK_THROWS_AS(contiguous(std::vector<std::int64_t>(9, 2), {0}), UsageError);
  CHECK_THROWS_AS(contiguous({4, 5}, {2}), UsageError);
  CHECK_THROWS_AS(contiguous({4, 5}, {9}), UsageError);
  CHECK_THROWS_AS(contiguous({4, 5}, {-1}), UsageError);
  CHECK_THROWS_AS(contiguous({4, 5}, {1, 1}), UsageError);
  CHECK_THROWS_AS(plan_axes({4, -5}, {5, 1}, {0}), UsageError);
  CHECK_THROWS_AS(plan_axes({4, 5}, {-5, 1}, {0}), UsageError);
  CHECK_THROWS_AS(plan_axes({4, 5}, {1}, {0}), UsageError);
  CHECK_THROWS_AS(contiguous({std::int64_t{1} << 40, std::int64_t{1} << 40}, {0}), UsageError);
}
