// Lesson 14's host side: picks the backend's table, checks the request, moves the results.
#include <string>

#include "common/host/cli.h"
#include "lessons/14_row_reduce/row_reduce_api.h"
#include "lessons/14_row_reduce/typed_dispatch.h"

namespace rl {
namespace backend_sim { const RowsBackend& rows_table(); }
#if RL_ROWS_HAVE_GPU
namespace backend_gpu { const RowsBackend& rows_table(); }
#endif

const RowsBackend* rows_backend(Backend b) {
  if (b == Backend::sim) return &backend_sim::rows_table();
#if RL_ROWS_HAVE_GPU
  return &backend_gpu::rows_table();
#else
  return nullptr;
#endif
}

// Op::Out has the same layout in both backends' instantiations; the simulator's is always built.
std::size_t reduce_output_bytes(ReduceOp op, DType t) { return backend_sim::output_bytes_of(op, t); }
OpValue decode_output(ReduceOp op, DType t, const void* outputs, std::uint64_t i) {
  return backend_sim::decode_output_of(op, t, outputs, i);
}

std::vector<OpValue> run_rows(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m, std::uint64_t n) {
  if (n == 0 && m > 0 && !allows_empty(op))
    throw UsageError(std::string(to_string(op)) + " of an empty row has no value (only sum does: 0)");
  const RowsBackend* b = rows_backend(d.backend());
  if (!b) throw UsageError("lesson 14 has no kernels for this backend in this build");
  std::vector<OpValue> result(m);
  if (m == 0) return result;
  const std::size_t out_bytes = m * reduce_output_bytes(op, t);
  DeviceBuffer scratch(d, b->scratch_bytes(op, t, m, n, d.shape()));
  DeviceBuffer out(d, out_bytes);
  d.poison(out.get(), out_bytes);  // an unwritten row reads as NaN, never as a plausible value
  b->reduce(op, t, in, m, n, scratch.get(), out.get(), d.shape(), d.stream());
  d.synchronize();
  std::vector<unsigned char> host(out_bytes);
  d.download(host.data(), out.get(), out_bytes);
  for (std::uint64_t i = 0; i < m; ++i) result[i] = decode_output(op, t, host.data(), i);
  return result;
}

}  // namespace rl
