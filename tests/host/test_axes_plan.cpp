// Lesson 16's plan on hand-checked layouts: merging, stride order, size-1 and size-0 axes, the
// strategy, and every kind of bad input as a usage error.
#include <catch2/catch.hpp>

#include <string>

#include "common/host/cli.h"
#include "lessons/16_any_axes/axes_plan.h"

using namespace rl;

namespace {

// The merged axes as text, outermost first: "64R/1048576 128K/8192" (size, kept or reduced, stride).
std::string merged(const AxesPlan& p) {
  std::string s;
  for (const MergedAxis& a : p.axes)
    s += (s.empty() ? "" : " ") + std::to_string(a.size) + (a.reduced ? "R/" : "K/") + std::to_string(a.stride);
  return s;
}

AxesPlan contiguous(const std::vector<std::int64_t>& sizes, const std::vector<int>& axes) {
  return plan_axes(sizes, contiguous_strides(sizes), axes);
}

}  // namespace

TEST_CASE("lesson 16 plan: the benchmark tensor over its four axis sets", "[host][axes]") {
  const std::vector<std::int64_t> shape{64, 128, 64, 128};
  const AxesPlan a02 = contiguous(shape, {0, 2});
  CHECK(merged(a02) == "64R/1048576 128K/8192 64R/128 128K/1");
  CHECK(a02.outputs == 16384);
  CHECK(a02.reduced == 4096);
  CHECK(a02.strategy == AxesStrategy::strided_columns);
  CHECK(a02.out_shape == std::vector<std::uint64_t>{128, 128});

  const AxesPlan a13 = contiguous(shape, {1, 3});
  CHECK(merged(a13) == "64K/1048576 128R/8192 64K/128 128R/1");
  CHECK(a13.strategy == AxesStrategy::strided_rows);
  CHECK(a13.outputs == 4096);

  const AxesPlan a3 = contiguous(shape, {3});  // the three kept axes fold into one: M x K rows
  CHECK(merged(a3) == "524288K/128 128R/1");
  CHECK(a3.strategy == AxesStrategy::rows);
  CHECK(a3.outputs == 524288);
  CHECK(a3.reduced == 128);

  const AxesPlan a0 = contiguous(shape, {0});  // the kept axes fold into one innermost: K x M columns
  CHECK(merged(a0) == "64R/1048576 1048576K/1");
  CHECK(a0.strategy == AxesStrategy::columns);
  CHECK(a0.input_span == std::uint64_t{1} << 26);
}

TEST_CASE("lesson 16 plan: neighbours of one kind merge, all axes and no axes", "[host][axes]") {
  CHECK(merged(contiguous({64, 128, 64, 128}, {2, 3})) == "8192K/8192 8192R/1");
  const AxesPlan all = contiguous({4, 5, 6}, {0, 1, 2});
  CHECK(merged(all) == "120R/1");
  CHECK(all.strategy == AxesStrategy::rows);
  CHECK(all.outputs == 1);
  CHECK(all.out_shape.empty());
  // No axes: every output is one element, an identity per element (a copy, for sum).
  const AxesPlan none = contiguous({4, 5, 6}, {});
  CHECK(merged(none) == "120K/1");
  CHECK(none.reduced == 1);
  CHECK(none.outputs == 120);
  CHECK(none.strategy == AxesStrategy::columns);
  // The order axes are named in does not matter.
  CHECK(merged(contiguous({4, 5, 6}, {2, 0})) == merged(contiguous({4, 5, 6}, {0, 2})));
}

TEST_CASE("lesson 16 plan: size-1 axes are dropped, and then their neighbours may merge", "[host][axes]") {
  CHECK(merged(contiguous({4, 1, 5}, {1})) == "20K/1");
  const AxesPlan p = contiguous({4, 1, 5}, {0, 2});  // the kept size-1 axis no longer separates them
  CHECK(merged(p) == "20R/1");
  CHECK(p.out_shape == std::vector<std::uint64_t>{1});
  const AxesPlan ones = contiguous({1, 1, 1}, {0, 2});
  CHECK(ones.axes.empty());
  CHECK(ones.outputs == 1);
  CHECK(ones.reduced == 1);
  CHECK(ones.describe().find("a single element") != std::string::npos);
}

TEST_CASE("lesson 16 plan: permuted strides are ordered by stride, not by axis number", "[host][axes]") {
  // A 3 x 4 view of a contiguous 4 x 3 (a transpose): axis 0 is the contiguous one.
  const AxesPlan t0 = plan_axes({3, 4}, {1, 3}, {0});
  CHECK(merged(t0) == "4K/3 3R/1");
  CHECK(t0.strategy == AxesStrategy::rows);
  const AxesPlan t1 = plan_axes({3, 4}, {1, 3}, {1});
  CHECK(merged(t1) == "4R/3 3K/1");
  CHECK(t1.strategy == AxesStrategy::columns);

  // (2, 3, 4) with strides (1, 8, 2): in memory axis 1, then 2, then 0. Axes 1 and 2 merge; axis 0
  // is contiguous with them in the input, but not in the output (row-major in the caller's order),
  // so with no axes reduced it stays apart and the copy is strided.
  const AxesPlan none = plan_axes({2, 3, 4}, {1, 8, 2}, {});
  CHECK(merged(none) == "12K/2 2K/1");
  CHECK(none.strategy == AxesStrategy::strided_columns);
  const AxesPlan r0 = plan_axes({2, 3, 4}, {1, 8, 2}, {0});
  CHECK(merged(r0) == "12K/2 2R/1");
  CHECK(r0.strategy == AxesStrategy::rows);
  CHECK(r0.input_span == 24);
  // Reduced axes numbered against memory order do not merge either: argmax's index would differ.
  const AxesPlan r12 = plan_axes({3, 4}, {1, 3}, {0, 1});
  CHECK(merged(r12) == "4R/3 3R/1");
  CHECK(r12.strategy == AxesStrategy::strided_rows);
}

TEST_CASE("lesson 16 plan: strided and broadcast layouts", "[host][axes]") {
  // Every other element of a row (a slice with step 2): the innermost stride is 2, never rows.
  const AxesPlan sliced = plan_axes({8, 16}, {32, 2}, {1});
  CHECK(merged(sliced) == "8K/32 16R/2");
  CHECK(sliced.strategy == AxesStrategy::strided_rows);
  // A padded row (pitch 20 for 16 elements): rows, with a row stride other than K.
  const AxesPlan pitched = plan_axes({8, 16}, {20, 1}, {1});
  CHECK(merged(pitched) == "8K/20 16R/1");
  CHECK(pitched.strategy == AxesStrategy::rows);
  CHECK(pitched.input_span == 7 * 20 + 16);
  // A broadcast axis (stride 0) is reduced like any other: every step reads the same element.
  const AxesPlan broadcast = plan_axes({5, 6}, {0, 1}, {0});
  CHECK(merged(broadcast) == "5R/0 6K/1");
  CHECK(broadcast.strategy == AxesStrategy::columns);
}

TEST_CASE("lesson 16 plan: rank 8", "[host][axes]") {
  const std::vector<std::int64_t> shape(8, 2);
  const AxesPlan alternate = contiguous(shape, {1, 3, 5, 7});
  CHECK(alternate.axes.size() == 8);
  CHECK(alternate.outputs == 16);
  CHECK(alternate.reduced == 16);
  CHECK(alternate.strategy == AxesStrategy::strided_rows);
  CHECK(merged(contiguous(shape, {4, 5, 6, 7})) == "16K/16 16R/1");
  CHECK(merged(contiguous(shape, {0, 1, 2, 3})) == "16R/16 16K/1");
}

TEST_CASE("lesson 16 plan: size-0 axes", "[host][axes]") {
  // Nothing to reduce: every output is the operator's value of nothing (sum: 0).
  const AxesPlan empty_reduction = contiguous({3, 0, 4}, {1});
  CHECK(empty_reduction.reduced == 0);
  CHECK(empty_reduction.outputs == 12);
  CHECK(merged(empty_reduction) == "12K/1");
  CHECK(empty_reduction.input_span == 0);
  // No outputs: nothing to do at all.
  const AxesPlan no_outputs = contiguous({3, 0, 4}, {0});
  CHECK(no_outputs.outputs == 0);
  CHECK(no_outputs.axes.empty());
}

TEST_CASE("lesson 16 plan: bad input is a usage error", "[host][axes]") {
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
