// Lesson 15's host side: picks the backend's table, checks the request, moves the results.
#include <string>
#include <utility>

#include "common/host/cli.h"
#include "lessons/15_column_reduce/column_reduce_api.h"

namespace rl {
namespace backend_sim { const ColumnsBackend& columns_table(); }
#if RL_COLUMNS_HAVE_GPU
namespace backend_gpu { const ColumnsBackend& columns_table(); }
#endif

const ColumnsBackend* columns_backend(Backend b) {
  if (b == Backend::sim) return &backend_sim::columns_table();
#if RL_COLUMNS_HAVE_GPU
  return &backend_gpu::columns_table();
#else
  return nullptr;
#endif
}

namespace {
const ColumnsBackend& table_for(Device& d) {
  const ColumnsBackend* b = columns_backend(d.backend());
  if (!b) throw UsageError("lesson 15 has no kernels for this backend in this build");
  return *b;
}

std::vector<unsigned char> download(Device& d, const DeviceBuffer& out) {
  d.synchronize();
  std::vector<unsigned char> host(out.bytes());
  d.download(host.data(), out.get(), out.bytes());
  return host;
}
}  // namespace

std::vector<unsigned char> run_columns_raw(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m,
                                           std::uint64_t n) {
  if (m == 0 && n > 0 && !allows_empty(op))
    throw UsageError(std::string(to_string(op)) + " of an empty column has no value (only sum does: 0)");
  const ColumnsBackend& b = table_for(d);
  if (n == 0) return {};
  const std::size_t out_bytes = n * reduce_output_bytes(op, t);
  DeviceBuffer scratch(d, b.scratch_bytes(op, t, m, n, d.shape()));
  DeviceBuffer out(d, out_bytes);
  d.poison(out.get(), out_bytes);  // an unwritten column reads as NaN, never as a plausible value
  b.reduce(op, t, in, m, n, scratch.get(), out.get(), d.shape(), d.stream());
  return download(d, out);
}

std::vector<OpValue> run_columns(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m, std::uint64_t n) {
  return decode_outputs(op, t, run_columns_raw(d, op, t, in, m, n), n);
}

std::vector<OpValue> run_columns_atomic(Device& d, const void* in, std::uint64_t m, std::uint64_t n) {
  const ColumnsBackend& b = table_for(d);
  if (n == 0) return {};
  DeviceBuffer out(d, n * sizeof(float));
  d.poison(out.get(), out.bytes());
  b.atomic_sum_f32(static_cast<const float*>(in), m, n, out.get<float>(), d.shape(), d.stream());
  return decode_outputs(ReduceOp::sum, DType::f32, download(d, out), n);
}

std::vector<MatrixCase> columns_graded_cases() {
  std::vector<MatrixCase> cases;
  // Tall-skinny (many chunks, one tile), short-wide (one chunk, many tiles), square-ish, odd N; M one
  // past a warp (33) and a block (257), and 2500 x 128: a finish while other chunks are in flight.
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{1, 1}, {1, 7}, {7, 1}, {33, 31}, {257, 8},
                             {31, 33}, {5000, 4}, {3001, 7}, {8, 2051}, {2, 4096}, {100, 257}, {300, 64}, {2500, 128}})
    for (const DType t : {DType::f32, DType::f16, DType::i32}) cases.push_back({m, n, t, 15 + m * n, 0, all_op_list()});
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{4000, 8}, {6, 300}, {64, 64}})
    for (const DType t : {DType::f64, DType::bf16}) cases.push_back({m, n, t, 3 * m + n, 0, all_op_list()});
  // Misaligned: every row starts off a 16-byte boundary, so the kernel takes scalar loads.
  for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{3000, 8}, {4, 1024}})
    for (const DType t : {DType::f32, DType::f16})
      cases.push_back({m, n, t, m + n, 1, {ReduceOp::sum, ReduceOp::argmin, ReduceOp::variance}});
  // No columns: no outputs, for any operator. Empty columns: only sum has a value (0).
  cases.push_back({10, 0, DType::f32, 1, 0, all_op_list()});
  cases.push_back({0, 6, DType::i32, 1, 0, {ReduceOp::sum}});
  return smallest_first(std::move(cases));
}

}  // namespace rl
