// Lesson 19's host side: its tables on a backend, its runs, and its graded cases.
#include <string>
#include <utility>

#include "common/host/backend_copies.h"
#include "common/host/cli.h"
#include "lessons/19_row_reduce/row_reduce_api.h"

namespace rl {

const RowsKernels* rows_kernels(Backend b) { return table_for<RowsKernels>(b); }
const RowsCub* rows_cub() { return gpu_table<RowsCub>(); }

std::vector<unsigned char> run_rows_raw(Device& d, ReduceOp op, DType t, const void* in,
                                        std::uint64_t m, std::uint64_t n) {
  const RowsKernels* k = rows_kernels(d.backend());
  if (!k) throw UsageError("lesson 19 has no kernels for this backend in this build");
  return run_matrix_raw(d, Axis::rows, *k, op, t, in, m, n);
}

std::vector<OpValue> run_rows(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m,
                              std::uint64_t n) {
  return decode_outputs(op, t, run_rows_raw(d, op, t, in, m, n), m);
}

std::vector<MatrixCase> rows_graded_cases() {
  std::vector<MatrixCase> cases;
  // (M, N): groups of 1, 2, 8, 16 and 32 lanes, odd N (scalar loads), a warp a row, a block a row,
  // and several blocks a row (few long rows); N one past a warp (33) and one past a block (257).
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{1, 1},
                             {7, 1},
                             {33, 7},
                             {257, 8},
                             {31, 31},
                             {100, 33},
                             {9, 64},
                             {5, 257},
                             {3, 1000},
                             {40, 1536},
                             {2, 20000},
                             {1, 70001}})
    for (const DType t : {DType::f32, DType::f16, DType::i32})
      cases.push_back({m, n, t, 14 + m * n, 0, all_op_list()});
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{33, 8}, {6, 300}, {2, 9000}})
    for (const DType t : {DType::f64, DType::bf16})
      cases.push_back({m, n, t, 3 * m + n, 0, all_op_list()});
  // Misaligned: every row starts off a 16-byte boundary, so the kernels take scalar loads.
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{20, 8}, {3, 4096}})
    for (const DType t : {DType::f32, DType::f16})
      cases.push_back({m, n, t, m + n, 1, {ReduceOp::sum, ReduceOp::argmax, ReduceOp::variance}});
  // No rows: no outputs, for any operator. Empty rows: only sum has a value (0).
  cases.push_back({0, 10, DType::f32, 1, 0, all_op_list()});
  cases.push_back({5, 0, DType::i32, 1, 0, {ReduceOp::sum}});
  return smallest_first(std::move(cases));
}

std::vector<MatrixCase> rows_idea_cases() { return {{.m = 64, .n = 64}, {.m = 64, .n = 128}}; }

}  // namespace rl
