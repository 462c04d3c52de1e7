// Lesson 15's host side: picks the backend's table, checks the request, moves the results.
#include <string>

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

std::vector<OpValue> download(Device& d, ReduceOp op, DType t, const DeviceBuffer& out, std::uint64_t n) {
  d.synchronize();
  std::vector<unsigned char> host(out.bytes());
  d.download(host.data(), out.get(), out.bytes());
  std::vector<OpValue> result(n);
  for (std::uint64_t i = 0; i < n; ++i) result[i] = decode_output(op, t, host.data(), i);
  return result;
}
}  // namespace

std::vector<OpValue> run_columns(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m, std::uint64_t n) {
  if (m == 0 && n > 0 && !allows_empty(op))
    throw UsageError(std::string(to_string(op)) + " of an empty column has no value (only sum does: 0)");
  const ColumnsBackend& b = table_for(d);
  if (n == 0) return {};
  const std::size_t out_bytes = n * reduce_output_bytes(op, t);
  DeviceBuffer scratch(d, b.scratch_bytes(op, t, m, n, d.shape()));
  DeviceBuffer out(d, out_bytes);
  d.poison(out.get(), out_bytes);  // an unwritten column reads as NaN, never as a plausible value
  b.reduce(op, t, in, m, n, scratch.get(), out.get(), d.shape(), d.stream());
  return download(d, op, t, out, n);
}

std::vector<OpValue> run_columns_atomic(Device& d, const void* in, std::uint64_t m, std::uint64_t n) {
  const ColumnsBackend& b = table_for(d);
  if (n == 0) return {};
  DeviceBuffer out(d, n * sizeof(float));
  d.poison(out.get(), out.bytes());
  b.atomic_sum_f32(static_cast<const float*>(in), m, n, out.get<float>(), d.shape(), d.stream());
  return download(d, ReduceOp::sum, DType::f32, out, n);
}

}  // namespace rl
