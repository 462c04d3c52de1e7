// Lesson 18's host side: its tables on a backend, and the checks and transfers around a reduction.
#include <string>

#include "common/host/backend_copies.h"
#include "common/host/cli.h"
#include "common/host/typed_outputs.h"
#include "lessons/18_operators_and_types/ops_api.h"

namespace rl {

const OpsKernels* ops_kernels(Backend b) { return table_for<OpsKernels>(b); }
const OpsCub* ops_cub() { return gpu_table<OpsCub>(); }

std::vector<std::byte> ops_input(DType t, std::uint64_t n, std::uint64_t seed) {
  std::vector<std::byte> data(n * dtype_bytes(t));
  fill_typed(data.data(), t, n, seed, Distribution::uniform);
  if (n >= 16) {
    const double big = t == DType::i32 ? 5000.0 : 2.0, small = -big;  // beyond every seeded value
    for (const std::uint64_t i : {n / 3, n / 3 + 1, 2 * n / 3, n - 1})
      store_element(t, data.data(), i, big);
    for (const std::uint64_t i : {n / 5, n / 5 + 1, n / 2, n - 2})
      store_element(t, data.data(), i, small);
  }
  return data;
}

OpValue run_op(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t n) {
  if (n == 0 && !allows_empty(op))
    throw UsageError(std::string(to_string(op)) +
                     " of an empty input has no value (only sum does: 0)");
  const OpsKernels* k = ops_kernels(d.backend());
  if (!k) throw UsageError("lesson 18 has no kernels for this backend in this build");
  DeviceBuffer scratch(d, k->scratch_bytes(op, t, n, d.shape()));
  DeviceBuffer out(d, ops_out_bytes);
  // an unwritten result reads as NaN, never as a plausible value
  d.poison(out.get(), ops_out_bytes);
  k->reduce(op, t, in, n, scratch.get(), out.get(), d.shape(), d.stream());
  d.synchronize();
  unsigned char host[ops_out_bytes];
  d.download(host, out.get(), ops_out_bytes);
  return decode_output(op, t, host, 0);
}

std::uint32_t run_depth(Device& d, const void* in, std::uint64_t n) {
  const OpsKernels* k = ops_kernels(d.backend());
  if (!k) throw UsageError("lesson 18 has no kernels for this backend in this build");
  DeviceBuffer scratch(d, k->depth_scratch_bytes(n, d.shape()));
  DeviceBuffer out(d, sizeof(std::uint32_t));
  d.poison(out.get(), sizeof(std::uint32_t));
  k->measure_depth(in, n, scratch.get(), out.get(), d.shape(), d.stream());
  d.synchronize();
  std::uint32_t depth = 0;
  d.download(&depth, out.get(), sizeof depth);
  return depth;
}

}  // namespace rl
