// Lesson 13's host side: picks the backend's table, and the checks and transfers around a reduction.
#include <string>

#include "common/host/cli.h"
#include "lessons/13_operators_and_types/ops_api.h"

namespace rl {
namespace backend_sim { const OpsBackend& ops_table(); }
#if RL_OPS_HAVE_GPU
namespace backend_gpu { const OpsBackend& ops_table(); }
const CubCounterpart& cub_counterpart_table();
#endif

const OpsBackend* ops_backend(Backend b) {
  if (b == Backend::sim) return &backend_sim::ops_table();
#if RL_OPS_HAVE_GPU
  return &backend_gpu::ops_table();
#else
  return nullptr;
#endif
}

const CubCounterpart* ops_cub() {
#if RL_OPS_HAVE_GPU
  return &cub_counterpart_table();
#else
  return nullptr;
#endif
}

OpValue run_op(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t n) {
  if (n == 0 && !allows_empty(op))
    throw UsageError(std::string(to_string(op)) + " of an empty input has no value (only sum does: 0)");
  const OpsBackend* b = ops_backend(d.backend());
  if (!b) throw UsageError("lesson 13 has no kernels for this backend in this build");
  DeviceBuffer scratch(d, b->scratch_bytes(op, t, n, d.shape()));
  DeviceBuffer out(d, ops_out_bytes);
  d.poison(out.get(), ops_out_bytes);  // an unwritten result reads as NaN, never as a plausible value
  b->reduce(op, t, in, n, scratch.get(), out.get(), d.shape(), d.stream());
  d.synchronize();
  unsigned char host[ops_out_bytes];
  d.download(host, out.get(), ops_out_bytes);
  return b->decode(op, t, host);
}

}  // namespace rl
