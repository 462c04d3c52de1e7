// Lesson 15 on the simulator: every operator on float32, float16 and int32 (float64 and bfloat16 on
// a few shapes) against the CPU reference, over shapes that reach each plan (one chunk or many, one
// tile or many, 1..256 column threads), odd row lengths (scalar loads), empty matrices, and the
// naive atomic version.
#include "common/host/cli.h"
#include "lessons/15_column_reduce/column_reduce_api.h"
#include "tests/lessons/matrix_checks.h"

using namespace rl;

namespace {
Device& sim() {
  static std::unique_ptr<Device> device = make_sim_device();
  return *device;
}
void check_columns(ReduceOp op, DType t, const std::vector<std::byte>& host, std::uint64_t m, std::uint64_t n,
                   unsigned offset = 0) {
  test::check_matrix(sim(), Axis::columns, run_columns, columns_backend(Backend::sim)->depth, op, t, host, m, n, offset);
}
}  // namespace

TEST_CASE("lesson 15: every operator matches the reference on every plan", "[sim][columns]") {
  // Tall-skinny (many chunks, one tile), short-wide (one chunk, many tiles), square-ish, odd N.
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{1, 1},    {1, 7},   {7, 1},     {33, 31},
                                                                    {257, 8},  {31, 33}, {5000, 4},  {3001, 7},
                                                                    {8, 2051}, {2, 4096}, {100, 257}, {300, 64},
                                                                    {2500, 128}}));  // a finish with chunks in flight
  for (const DType t : {DType::f32, DType::f16, DType::i32}) {
    const auto host = test::matrix_input(Axis::columns, t, m, n, 15 + m * n);
    for (const ReduceOp op : all_ops) check_columns(op, t, host, m, n);
  }
}

TEST_CASE("lesson 15: float64 and bfloat16", "[sim][columns]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{4000, 8}, {6, 300}, {64, 64}}));
  for (const DType t : {DType::f64, DType::bf16}) {
    const auto host = test::matrix_input(Axis::columns, t, m, n, 3 * m + n);
    for (const ReduceOp op : all_ops) check_columns(op, t, host, m, n);
  }
}

TEST_CASE("lesson 15: a misaligned matrix is read with scalar loads", "[sim][columns]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{3000, 8}, {4, 1024}}));
  for (const DType t : {DType::f32, DType::f16}) {
    const auto host = test::matrix_input(Axis::columns, t, m, n, m + n);
    for (const ReduceOp op : {ReduceOp::sum, ReduceOp::argmin, ReduceOp::variance}) check_columns(op, t, host, m, n, 1);
  }
}

TEST_CASE("lesson 15: empty columns sum to 0 and are a usage error for the rest; no columns, no outputs", "[sim][columns]") {
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

TEST_CASE("lesson 15: the chunk partials meet in a fixed order: the same bits every run", "[sim][columns]") {
  const std::uint64_t m = 6000, n = 8;
  const auto host = test::matrix_input(Axis::columns, DType::f32, m, n, 5);
  const test::OffsetInput in(sim(), DType::f32, host, 0);
  const auto a = run_columns(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  const auto b = run_columns(sim(), ReduceOp::sum, DType::f32, in.at, m, n);
  for (std::uint64_t c = 0; c < n; ++c) CHECK(a[c].value == b[c].value);
}

TEST_CASE("lesson 15: the naive atomic sum is right to within its tolerance", "[sim][columns]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{1, 1}, {300, 7}, {16, 1000}}));
  const auto host = test::matrix_input(Axis::columns, DType::f32, m, n, 9);
  const test::MatrixRun atomic = [](Device& d, ReduceOp, DType, const void* in, std::uint64_t mm, std::uint64_t nn) {
    return run_columns_atomic(d, in, mm, nn);
  };
  const test::MatrixDepth depth = [](ReduceOp, DType, std::uint64_t mm, std::uint64_t, const DeviceShape&) { return mm + 1; };
  test::check_matrix(sim(), Axis::columns, atomic, depth, ReduceOp::sum, DType::f32, host, m, n);
}
