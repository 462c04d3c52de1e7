// Lesson 21 on the simulator: its graded cases (axes_graded_cases(): every operator on float32,
// float16 and int32 over rank 8, transposed and broadcast views, the benchmark's four layouts at a
// small size, random axis subsets of random transposed tensors of rank 1-5 with sizes 0 and 1, and
// split reductions), against the CPU reference; and the API's answer to an empty reduction.
#include "common/host/cli.h"
#include "tests/lessons/axes_checks.h"

using namespace rl;

using test::sim;

TEST_CASE("lesson 21: every graded case matches the reference", "[sim][axes]") {
  // axes_graded_cases(): the list `21_any_axes --grade` runs, with the grader's own check.
  const AxesCase c = GENERATE(from_range(axes_graded_cases()));
  test::check_graded_case(sim(), c);
}

TEST_CASE("lesson 21: an empty reduction sums to 0 and is a usage error for the rest",
          "[sim][axes]") {
  const AxesPlan plan = plan_axes({3, 0, 4}, {4, 4, 1}, {1});
  DeviceBuffer none(sim(), 16);
  const auto sums = run_axes(sim(), ReduceOp::sum, DType::f32, none.get(), plan);
  REQUIRE(sums.size() == 12);
  for (const OpValue& v : sums) CHECK(v.value == 0.0);
  for (const ReduceOp op : all_ops)
    if (op != ReduceOp::sum)
      CHECK_THROWS_AS(run_axes(sim(), op, DType::f32, none.get(), plan), UsageError);
  // No outputs at all: nothing to compute, for any operator.
  CHECK(run_axes(sim(), ReduceOp::max, DType::f32, none.get(), plan_axes({3, 0, 4}, {4, 4, 1}, {0}))
            .empty());
}
