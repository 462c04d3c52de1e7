// Lesson 20 on the simulator: its graded cases (columns_graded_cases(): every operator on every
// type, over shapes that reach each plan, odd row lengths, misaligned and empty matrices), the
// API's answer to empty columns, the same bits on every run, and the naive atomic version.
#include "common/host/cli.h"
#include "lessons/20_column_reduce/column_reduce_api.h"
#include "tests/lessons/matrix_checks.h"

using namespace rl;

using test::sim;

TEST_CASE("lesson 20: every graded case matches the reference", "[sim][columns]") {
  // columns_graded_cases(): the list `20_column_reduce --grade` runs, with the grader's own check.
  const MatrixCase c = GENERATE(from_range(columns_graded_cases()));
  test::check_graded_case(sim(), Axis::columns, *columns_kernels(Backend::sim), c);
}

TEST_CASE(
    "lesson 20: empty columns sum to 0 and are a usage error for the rest; no columns, no outputs",
    "[sim][columns]") {
  for (const DType t : {DType::f32, DType::i32}) {
    const std::vector<std::byte> none;
    const test::OffsetInput in(sim(), t, none, 0);
    const auto sums = run_columns(sim(), ReduceOp::sum, t, in.at, 0, 6);
    REQUIRE(sums.size() == 6);
    for (const OpValue& v : sums) CHECK(v.value == 0.0);
    CHECK(run_columns(sim(), ReduceOp::max, t, in.at, 10, 0).empty());
    for (const ReduceOp op : all_ops)
      if (op != ReduceOp::sum) CHECK_THROWS_AS(run_columns(sim(), op, t, in.at, 0, 3), UsageError);
  }
}

TEST_CASE("lesson 20: the chunk partials meet in a fixed order: the same bits every run",
          "[sim][columns]") {
  const std::uint64_t m = 6000, n = 8;
  const auto host = matrix_input(Axis::columns, DType::f32, m, n, 5);
  const test::OffsetInput in(sim(), DType::f32, host, 0);
  const auto a = run_columns(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  const auto b = run_columns(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  for (std::uint64_t c = 0; c < n; ++c) CHECK(a[c].value == b[c].value);
}

TEST_CASE("lesson 20: the naive atomic sum is right to within its tolerance", "[sim][columns]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{1, 1}, {300, 7}, {16, 1000}}));
  const auto host = matrix_input(Axis::columns, DType::f32, m, n, 9);
  const test::MatrixRun atomic = [](Device& d, ReduceOp, DType, const void* in, std::uint64_t mm,
                                    std::uint64_t nn) { return run_columns_atomic(d, in, mm, nn); };
  const test::MatrixDepth depth = [](ReduceOp, DType, std::uint64_t mm, std::uint64_t,
                                     const DeviceShape&) { return mm + 1; };
  test::check_reduction(sim(), Axis::columns, atomic, depth, ReduceOp::sum, DType::f32, host, m, n);
}

TEST_CASE("lesson 20: the kernels' measured depth lies between log2 of a line and the plan's depth",
          "[sim][columns][idea]") {
  // Every graded shape, and the idea check's own cases (columns_idea_cases()).
  std::vector<MatrixCase> cases = columns_idea_cases();
  for (const MatrixCase& c : columns_graded_cases())
    if (c.offset == 0 && c.type == DType::f32) cases.push_back(c);
  const MatrixCase c = GENERATE_COPY(from_range(cases));
  test::check_depth(sim(), Axis::columns, *columns_kernels(Backend::sim), c);
}
