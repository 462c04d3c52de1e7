// Lessons 19 and 20 on the GPU: the simulator's shapes, the benchmark shapes (every operator on
// float32, sum on the other types), misaligned matrices, the same bits on every run, and agreement
// of the GPU with the simulator. Exits 77 (skipped) where there is no GPU (gpu_main.cpp).
#include <cmath>

#include "lessons/19_row_reduce/row_reduce_api.h"
#include "lessons/20_column_reduce/column_reduce_api.h"
#include "tests/lessons/matrix_checks.h"

using namespace rl;
using test::gpu;

namespace {
void check(Axis axis, ReduceOp op, DType t, const std::vector<std::byte>& host, std::uint64_t m,
           std::uint64_t n, unsigned offset = 0) {
  if (axis == Axis::rows)
    test::check_reduction(gpu(), axis, run_rows, rows_kernels(Backend::gpu)->depth, op, t, host, m,
                          n, offset);
  else
    test::check_reduction(gpu(), axis, run_columns, columns_kernels(Backend::gpu)->depth, op, t,
                          host, m, n, offset);
}
}  // namespace

TEST_CASE("lessons 19, 20 on the GPU: small shapes, every operator and type",
          "[gpu][rows][columns]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>({{1, 1},
                                                                    {7, 1},
                                                                    {33, 7},
                                                                    {257, 8},
                                                                    {31, 33},
                                                                    {9, 64},
                                                                    {5, 257},
                                                                    {3, 1000},
                                                                    {40, 1536},
                                                                    {2, 20000},
                                                                    {1, 70001},
                                                                    {5000, 4},
                                                                    {3001, 7},
                                                                    {8, 2051}}));
  for (const Axis axis : {Axis::rows, Axis::columns})
    for (const DType t : all_dtypes) {
      const auto host = matrix_input(axis, t, m, n, 16 + m * n);
      for (const ReduceOp op : all_ops) check(axis, op, t, host, m, n);
    }
}

TEST_CASE("lessons 19, 20 on the GPU: the benchmark shapes", "[gpu][rows][columns]") {
  const auto [m, n] = GENERATE(table<std::uint64_t, std::uint64_t>(
      {{4096, 4096}, {65536, 64}, {64, 65536}, {1u << 20, 8}, {8, 1u << 20}, {1000, 1001}}));
  for (const Axis axis : {Axis::rows, Axis::columns}) {
    for (const DType t : all_dtypes) {
      const auto host = matrix_input(axis, t, m, n, m + n);
      if (t == DType::f32)
        for (const ReduceOp op : all_ops) check(axis, op, t, host, m, n);
      else
        check(axis, ReduceOp::sum, t, host, m, n);
    }
  }
}

TEST_CASE("lessons 19, 20 on the GPU: misaligned matrices", "[gpu][rows][columns]") {
  const auto [m, n] =
      GENERATE(table<std::uint64_t, std::uint64_t>({{64, 8}, {3, 65536}, {20000, 8}}));
  for (const Axis axis : {Axis::rows, Axis::columns})
    for (const DType t : {DType::f32, DType::f16, DType::f64}) {
      const auto host = matrix_input(axis, t, m, n, m * n);
      for (const ReduceOp op : {ReduceOp::sum, ReduceOp::argmax, ReduceOp::variance})
        check(axis, op, t, host, m, n, 1);
    }
}

TEST_CASE("lessons 19, 20 on the GPU: the same bits every run, and the simulator's",
          "[gpu][rows][columns]") {
  auto sim = make_sim_device();
  const auto [m, n] =
      GENERATE(table<std::uint64_t, std::uint64_t>({{4, 100000}, {100000, 8}, {300, 300}}));
  for (const Axis axis : {Axis::rows, Axis::columns}) {
    const auto host = matrix_input(axis, DType::f32, m, n, 77);
    const test::OffsetInput on_gpu(gpu(), DType::f32, host, 0), on_sim(*sim, DType::f32, host, 0);
    const auto run = axis == Axis::rows ? run_rows : run_columns;
    for (const ReduceOp op : {ReduceOp::sum, ReduceOp::variance, ReduceOp::argmax}) {
      const auto a = run(gpu(), op, DType::f32, on_gpu.at, m, n),
                 b = run(gpu(), op, DType::f32, on_gpu.at, m, n);
      const auto s = run(*sim, op, DType::f32, on_sim.at, m, n);
      std::uint64_t differ = 0, disagree = 0;
      for (std::size_t i = 0; i < a.size(); ++i) {
        differ += a[i].value != b[i].value || a[i].index != b[i].index;
        disagree += a[i].index != s[i].index;
      }
      INFO(to_string(op) << " " << m << "x" << n << (axis == Axis::rows ? " rows" : " columns"));
      CHECK(differ == 0);
      CHECK(disagree == 0);
    }
  }
}

TEST_CASE("lesson 20 on the GPU: the naive atomic sum", "[gpu][columns]") {
  const auto [m, n] =
      GENERATE(table<std::uint64_t, std::uint64_t>({{300, 7}, {4096, 4096}, {1u << 20, 8}}));
  const auto host = matrix_input(Axis::columns, DType::f32, m, n, 9);
  const test::MatrixRun atomic = [](Device& d, ReduceOp, DType, const void* in, std::uint64_t mm,
                                    std::uint64_t nn) { return run_columns_atomic(d, in, mm, nn); };
  const test::MatrixDepth depth = [](ReduceOp, DType, std::uint64_t mm, std::uint64_t,
                                     const DeviceShape&) { return mm + 1; };
  test::check_reduction(gpu(), Axis::columns, atomic, depth, ReduceOp::sum, DType::f32, host, m, n);
}

TEST_CASE(
    "lessons 19, 20 on the GPU: the measured depth lies between log2 of a line and the plan's",
    "[gpu][rows][columns][idea]") {
  for (const MatrixCase& c : rows_idea_cases())
    test::check_depth(gpu(), Axis::rows, *rows_kernels(Backend::gpu), c);
  for (const MatrixCase& c : columns_idea_cases())
    test::check_depth(gpu(), Axis::columns, *columns_kernels(Backend::gpu), c);
  // the benchmark shapes: a block a row, several blocks a row, many chunks and many tiles
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{4096, 4096},
                             {8, std::uint64_t{1} << 20},
                             {std::uint64_t{1} << 20, 8},
                             {64, 65536}}) {
    test::check_depth(gpu(), Axis::rows, *rows_kernels(Backend::gpu), {.m = m, .n = n});
    test::check_depth(gpu(), Axis::columns, *columns_kernels(Backend::gpu), {.m = m, .n = n});
  }
}
