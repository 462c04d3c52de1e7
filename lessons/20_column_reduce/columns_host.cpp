// Lesson 20's host side: its tables on a backend, its runs, and its graded cases.
#include <string>
#include <utility>

#include "common/host/backend_copies.h"
#include "common/host/cli.h"
#include "lessons/20_column_reduce/column_reduce_api.h"

namespace rl {

const ColumnsKernels* columns_kernels(Backend b) { return table_for<ColumnsKernels>(b); }
const ColumnsCub* columns_cub() { return gpu_table<ColumnsCub>(); }

namespace {
const ColumnsKernels& kernels_on(Device& d) {
  const ColumnsKernels* k = columns_kernels(d.backend());
  if (!k) throw UsageError("lesson 20 has no kernels for this backend in this build");
  return *k;
}
}  // namespace

std::vector<unsigned char> run_columns_raw(Device& d, ReduceOp op, DType t, const void* in,
                                           std::uint64_t m, std::uint64_t n) {
  return run_matrix_raw(d, Axis::columns, kernels_on(d), op, t, in, m, n);
}

std::vector<OpValue> run_columns(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m,
                                 std::uint64_t n) {
  return decode_outputs(op, t, run_columns_raw(d, op, t, in, m, n), n);
}

std::vector<OpValue> run_columns_atomic(Device& d, const void* in, std::uint64_t m,
                                        std::uint64_t n) {
  const ColumnsKernels& k = kernels_on(d);
  if (n == 0) return {};
  DeviceBuffer out(d, n * sizeof(float));
  d.poison(out.get(), out.bytes());
  k.atomic_sum_f32(static_cast<const float*>(in), m, n, out.get<float>(), d.shape(), d.stream());
  d.synchronize();
  std::vector<unsigned char> host(out.bytes());
  d.download(host.data(), out.get(), out.bytes());
  return decode_outputs(ReduceOp::sum, DType::f32, host, n);
}

std::vector<MatrixCase> columns_graded_cases() {
  std::vector<MatrixCase> cases;
  // Tall-skinny (many chunks, one tile), short-wide (one chunk, many tiles), square-ish, odd N; M
  // one past a warp (33) and a block (257), and 2500 x 128: a finish while other chunks are in
  // flight.
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{1, 1},
                             {1, 7},
                             {7, 1},
                             {33, 31},
                             {257, 8},
                             {31, 33},
                             {5000, 4},
                             {3001, 7},
                             {8, 2051},
                             {2, 4096},
                             {100, 257},
                             {300, 64},
                             {2500, 128}})
    for (const DType t : {DType::f32, DType::f16, DType::i32})
      cases.push_back({m, n, t, 15 + m * n, 0, all_op_list()});
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{4000, 8}, {6, 300}, {64, 64}})
    for (const DType t : {DType::f64, DType::bf16})
      cases.push_back({m, n, t, 3 * m + n, 0, all_op_list()});
  // Misaligned: every row starts off a 16-byte boundary, so the kernel takes scalar loads.
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{3000, 8}, {4, 1024}})
    for (const DType t : {DType::f32, DType::f16})
      cases.push_back({m, n, t, m + n, 1, {ReduceOp::sum, ReduceOp::argmin, ReduceOp::variance}});
  // No columns: no outputs, for any operator. Empty columns: only sum has a value (0).
  cases.push_back({10, 0, DType::f32, 1, 0, all_op_list()});
  cases.push_back({0, 6, DType::i32, 1, 0, {ReduceOp::sum}});
  return smallest_first(std::move(cases));
}

std::vector<MatrixCase> columns_idea_cases() { return {{.m = 2500, .n = 128}}; }

}  // namespace rl
