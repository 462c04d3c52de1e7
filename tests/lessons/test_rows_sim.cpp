// Lesson 14 on the simulator: every operator on float32, float16 and int32 (float64 and bfloat16 on
// a few shapes) against the CPU reference, over shapes that reach each plan (groups of 1..32 lanes,
// a warp, a block and several blocks a row), odd row lengths (misaligned rows: scalar loads), and
// empty matrices.
#include "common/host/cli.h"
#include "lessons/14_row_reduce/row_reduce_api.h"
#include "tests/lessons/matrix_checks.h"

using namespace rl;

namespace {
Device& sim() {
  static std::unique_ptr<Device> device = make_sim_device();
  return *device;
}
void check_rows(ReduceOp op, DType t, const std::vector<std::byte>& host, std::uint64_t m, std::uint64_t n,
                unsigned offset = 0) {
  test::check_matrix(sim(), Axis::rows, run_rows, rows_backend(Backend::sim)->depth, op, t, host, m, n, offset);
}
}  // namespace

TEST_CASE("lesson 14: every operator matches the reference on every plan", "[sim][rows]") {
  // (M, N): groups of 1, 2, 8, 16 and 32 lanes, odd N (scalar loads), a warp a row, a block a row,
  // and several blocks a row (few long rows).
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{1, 1},   {7, 1},    {33, 7},   {257, 8},
                                                                    {31, 31},  {100, 33}, {9, 64},   {5, 257},
                                                                    {3, 1000}, {40, 1536}, {2, 20000}, {1, 70001}}));
  for (const DType t : {DType::f32, DType::f16, DType::i32}) {
    const auto host = test::matrix_input(Axis::rows, t, m, n, 14 + m * n);
    for (const ReduceOp op : all_ops) check_rows(op, t, host, m, n);
  }
}

TEST_CASE("lesson 14: float64 and bfloat16", "[sim][rows]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{33, 8}, {6, 300}, {2, 9000}}));
  for (const DType t : {DType::f64, DType::bf16}) {
    const auto host = test::matrix_input(Axis::rows, t, m, n, 3 * m + n);
    for (const ReduceOp op : all_ops) check_rows(op, t, host, m, n);
  }
}

TEST_CASE("lesson 14: a misaligned matrix is read with scalar loads", "[sim][rows]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{20, 8}, {3, 4096}}));
  for (const DType t : {DType::f32, DType::f16}) {
    const auto host = test::matrix_input(Axis::rows, t, m, n, m + n);
    for (const ReduceOp op : {ReduceOp::sum, ReduceOp::argmax, ReduceOp::variance}) check_rows(op, t, host, m, n, 1);
  }
}

TEST_CASE("lesson 14: empty rows sum to 0 and are a usage error for the rest; no rows, no outputs", "[sim][rows]") {
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

TEST_CASE("lesson 14: the same bits every run (the split plan's partials meet in a fixed order)", "[sim][rows]") {
  const std::uint64_t m = 2, n = 50000;
  const auto host = test::matrix_input(Axis::rows, DType::f32, m, n, 5);
  const test::OffsetInput in(sim(), DType::f32, host, 0);
  const auto a = run_rows(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  const auto b = run_rows(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  for (std::uint64_t r = 0; r < m; ++r) CHECK(a[r].value == b[r].value);
}
