// Lesson 19 on the simulator: its graded cases (rows_graded_cases(): every operator on every type,
// over shapes that reach each plan, odd row lengths, misaligned and empty matrices), the API's
// answer to empty rows, and the same bits on every run.
#include "common/host/cli.h"
#include "lessons/19_row_reduce/row_reduce_api.h"
#include "tests/lessons/matrix_checks.h"

using namespace rl;

using test::sim;

TEST_CASE("lesson 19: every graded case matches the reference", "[sim][rows]") {
  // rows_graded_cases(): the list `19_row_reduce --grade` runs, with the grader's own check.
  const MatrixCase c = GENERATE(from_range(rows_graded_cases()));
  test::check_graded_case(sim(), Axis::rows, *rows_kernels(Backend::sim), c);
}

TEST_CASE("lesson 19: empty rows sum to 0 and are a usage error for the rest; no rows, no outputs",
          "[sim][rows]") {
  for (const DType t : {DType::f32, DType::i32}) {
    const std::vector<std::byte> none;
    const test::OffsetInput in(sim(), t, none, 0);
    const auto sums = run_rows(sim(), ReduceOp::sum, t, in.at, 5, 0);
    REQUIRE(sums.size() == 5);
    for (const OpValue& v : sums) CHECK(v.value == 0.0);
    CHECK(run_rows(sim(), ReduceOp::max, t, in.at, 0, 10).empty());
    for (const ReduceOp op : all_ops)
      if (op != ReduceOp::sum) CHECK_THROWS_AS(run_rows(sim(), op, t, in.at, 3, 0), UsageError);
  }
}

TEST_CASE("lesson 19: the same bits every run (the split plan's partials meet in a fixed order)",
          "[sim][rows]") {
  const std::uint64_t m = 2, n = 50000;
  const auto host = matrix_input(Axis::rows, DType::f32, m, n, 5);
  const test::OffsetInput in(sim(), DType::f32, host, 0);
  const auto a = run_rows(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  const auto b = run_rows(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  for (std::uint64_t r = 0; r < m; ++r) CHECK(a[r].value == b[r].value);
}

TEST_CASE("lesson 19: the kernels' measured depth lies between log2 of a line and the plan's depth",
          "[sim][rows][idea]") {
  // Every graded shape, and the idea check's own cases (rows_idea_cases()).
  std::vector<MatrixCase> cases = rows_idea_cases();
  for (const MatrixCase& c : rows_graded_cases())
    if (c.offset == 0 && c.type == DType::f32) cases.push_back(c);
  const MatrixCase c = GENERATE_COPY(from_range(cases));
  test::check_depth(sim(), Axis::rows, *rows_kernels(Backend::sim), c);
}
