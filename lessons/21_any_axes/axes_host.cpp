// Lesson 21's host side: its tables on a backend, the transfers around a reduction, and the CPU
// reference that gathers each output's elements the slow, obvious way.
#include <cstring>
#include <string>

#include "common/host/backend_copies.h"
#include "common/host/cli.h"
#include "common/host/typed_outputs.h"
#include "lessons/21_any_axes/axes_api.h"

namespace rl {

const AxesKernels* axes_kernels(Backend b) { return table_for<AxesKernels>(b); }
const AxesCub* axes_cub() { return gpu_table<AxesCub>(); }

std::vector<unsigned char> run_axes_raw(Device& d, ReduceOp op, DType t, const void* in,
                                        const AxesPlan& plan) {
  if (plan.reduced == 0 && plan.outputs > 0 && !allows_empty(op))
    throw UsageError(std::string(to_string(op)) +
                     " over no elements has no value (only sum does: 0)");
  const AxesKernels* k = axes_kernels(d.backend());
  if (!k) throw UsageError("lesson 21 has no kernels for this backend in this build");
  const std::size_t bytes = reduce_output_bytes(op, t) * plan.outputs;
  DeviceBuffer scratch(d, k->scratch_bytes(op, t, plan, in, d.shape()));
  DeviceBuffer out(d, bytes);
  // an unwritten output reads as NaN, never as a plausible value
  if (bytes) d.poison(out.get(), bytes);
  k->reduce(op, t, in, plan, scratch.get(), out.get(), d.shape(), d.stream());
  d.synchronize();
  std::vector<unsigned char> host(bytes);
  if (bytes) d.download(host.data(), out.get(), bytes);
  return host;
}

std::vector<OpValue> run_axes(Device& d, ReduceOp op, DType t, const void* in,
                              const AxesPlan& plan) {
  return decode_outputs(op, t, run_axes_raw(d, op, t, in, plan), plan.outputs);
}

std::vector<OpReference> axes_reference(ReduceOp op, DType t, const std::byte* data,
                                        const AxesPlan& plan,
                                        const std::vector<std::int64_t>& sizes,
                                        const std::vector<std::int64_t>& strides,
                                        const std::vector<int>& axes, std::uint64_t depth) {
  // Kept and reduced axes in the caller's order; numbers decompose row-major over them (last
  // fastest).
  std::vector<bool> reduce(sizes.size(), false);
  for (const int a : axes) reduce[static_cast<std::size_t>(a)] = true;
  std::vector<std::size_t> kept, red;
  for (std::size_t i = 0; i < sizes.size(); ++i) (reduce[i] ? red : kept).push_back(i);
  auto offset_of = [&](const std::vector<std::size_t>& dims, std::uint64_t number) {
    std::uint64_t off = 0;
    for (std::size_t j = dims.size(); j-- > 0;) {
      const auto size = static_cast<std::uint64_t>(sizes[dims[j]]);
      off += number % size * static_cast<std::uint64_t>(strides[dims[j]]);
      number /= size;
    }
    return off;
  };
  const std::size_t width = dtype_bytes(t);
  std::vector<OpReference> refs;
  refs.reserve(plan.outputs);
  std::vector<std::byte> gathered(plan.reduced * width);
  for (std::uint64_t m = 0; m < plan.outputs; ++m) {
    const std::uint64_t base = offset_of(kept, m);
    for (std::uint64_t r = 0; r < plan.reduced; ++r)
      std::memcpy(gathered.data() + r * width, data + (base + offset_of(red, r)) * width, width);
    refs.push_back(typed_reference(op, t, gathered.data(), plan.reduced, depth));
  }
  return refs;
}

}  // namespace rl
