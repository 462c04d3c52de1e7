// The matrix lessons' graded cases: the input, the reference and the one check the tests and the
// grader share.
#include "common/host/matrix_cases.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "common/host/cli.h"
#include "common/host/grading.h"  // idea_mark
#include "common/host/typed_outputs.h"

namespace rl {

std::vector<ReduceOp> all_op_list() { return {std::begin(all_ops), std::end(all_ops)}; }

std::vector<MatrixCase> smallest_first(std::vector<MatrixCase> cases) {
  std::stable_sort(cases.begin(), cases.end(), [](const MatrixCase& a, const MatrixCase& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.m * a.n < b.m * b.n;
  });
  return cases;
}

OpReference matrix_reference(Axis axis, ReduceOp op, DType t, const std::byte* data,
                             std::uint64_t m, std::uint64_t n, std::uint64_t i, std::uint64_t depth,
                             std::vector<std::byte>& gather) {
  const std::size_t e = dtype_bytes(t);
  if (axis == Axis::rows) return typed_reference(op, t, data + i * n * e, n, depth);
  gather.resize(m * e);
  for (std::uint64_t r = 0; r < m; ++r)
    std::memcpy(gather.data() + r * e, data + (r * n + i) * e, e);
  return typed_reference(op, t, gather.data(), m, depth);
}

std::string describe(Axis axis, const MatrixCase& c, ReduceOp op) {
  std::string s = std::string(to_string(op)) + " of " + std::string(to_string(c.type)) + ", " +
                  std::to_string(c.m) + "x" + std::to_string(c.n) +
                  (axis == Axis::rows ? " rows" : " columns") + ", seed " + std::to_string(c.seed);
  if (c.offset)
    s += ", " + std::to_string(c.offset) + " element" + (c.offset == 1 ? "" : "s") +
         " past 16 bytes";
  return s;
}

std::vector<std::byte> matrix_input(Axis axis, DType t, std::uint64_t m, std::uint64_t n,
                                    std::uint64_t seed) {
  std::vector<std::byte> data(m * n * dtype_bytes(t));
  fill_typed(data.data(), t, m * n, seed, Distribution::uniform);
  const std::uint64_t lines = axis == Axis::rows ? m : n, length = axis == Axis::rows ? n : m;
  if (length >= 8) {
    const double big = t == DType::i32 ? 5000.0 : 2.0, small = -big;  // beyond every seeded value
    for (std::uint64_t l = 0; l < lines; ++l) {
      auto at = [&](std::uint64_t k) { return axis == Axis::rows ? l * n + k : k * n + l; };
      for (const std::uint64_t k : {length / 3, length / 3 + 1, length - 1})
        store_element(t, data.data(), at(k), big);
      for (const std::uint64_t k : {length / 5, length / 2, length - 2})
        store_element(t, data.data(), at(k), small);
    }
  }
  return data;
}

std::vector<unsigned char> run_matrix_raw(Device& d, Axis axis, const MatrixKernels& k, ReduceOp op,
                                          DType t, const void* in, std::uint64_t m,
                                          std::uint64_t n) {
  const std::uint64_t outputs = axis == Axis::rows ? m : n, length = axis == Axis::rows ? n : m;
  if (length == 0 && outputs > 0 && !allows_empty(op))
    throw UsageError(std::string(to_string(op)) + " of an empty " +
                     (axis == Axis::rows ? "row" : "column") + " has no value (only sum does: 0)");
  const std::size_t out_bytes = outputs * reduce_output_bytes(op, t);
  std::vector<unsigned char> host(out_bytes);
  if (outputs == 0) return host;
  DeviceBuffer scratch(d, k.scratch_bytes(op, t, m, n, d.shape()));
  DeviceBuffer out(d, out_bytes);
  d.poison(out.get(), out_bytes);  // an unwritten output reads as NaN, never as a plausible value
  k.reduce(op, t, in, m, n, scratch.get(), out.get(), d.shape(), d.stream());
  d.synchronize();
  d.download(host.data(), out.get(), out_bytes);
  return host;
}

std::vector<unsigned char> matrix_case_outputs(Device& d, Axis axis, const MatrixKernels& k,
                                               const MatrixCase& c, ReduceOp op) {
  const std::vector<std::byte> host = matrix_input(axis, c.type, c.m, c.n, c.seed);
  const std::size_t width = dtype_bytes(c.type);
  DeviceBuffer buffer(d, host.size() + 16 + c.offset * width);  // allocations are 256-byte aligned
  std::byte* at = buffer.get<std::byte>() + c.offset * width;
  if (!host.empty()) d.upload(at, host.data(), host.size());
  return run_matrix_raw(d, axis, k, op, c.type, at, c.m, c.n);
}

std::optional<std::string> matrix_outputs_failure(Axis axis, const MatrixKernels& k,
                                                  const MatrixCase& c, ReduceOp op,
                                                  const DeviceShape& shape,
                                                  const std::vector<unsigned char>& raw) {
  const std::uint64_t outputs = axis == Axis::rows ? c.m : c.n;
  const std::size_t one = reduce_output_bytes(op, c.type);
  const std::string line = axis == Axis::rows ? "row" : "column";
  if (raw.size() != outputs * one)
    return "returned " + std::to_string(raw.size() / one) + " outputs for " +
           std::to_string(outputs) + " " + line + "s";
  // nothing to check (and no plan: the kernels launch nothing)
  if (outputs == 0) return std::nullopt;
  const std::vector<std::byte> host = matrix_input(axis, c.type, c.m, c.n, c.seed);
  const std::uint64_t depth = k.depth(op, c.type, c.m, c.n, shape);
  std::vector<std::byte> gather;
  const WrongOutputs wrong = wrong_outputs(
      op, c.type, raw,
      [&](std::uint64_t i) {
        return matrix_reference(axis, op, c.type, host.data(), c.m, c.n, i, depth, gather);
      },
      line);
  if (wrong.count == 0) return std::nullopt;
  return wrong.first + " (" + std::to_string(wrong.count) + " of " + std::to_string(outputs) + " " +
         line + "s wrong; " +
         (c.offset ? "plan for aligned rows, but these are not, so the loads are single elements: "
                   : "plan: ") +
         k.plan(op, c.type, c.m, c.n, shape) + ")";
}

std::vector<unsigned char> matrix_depth_outputs(Device& d, Axis axis, const MatrixKernels& k,
                                                const MatrixCase& c) {
  if (c.type != DType::f32 || c.offset != 0)
    throw std::logic_error("matrix_depth_outputs: an aligned float32 case");
  const std::vector<std::byte> host = matrix_input(axis, c.type, c.m, c.n, c.seed);
  const std::size_t out_bytes = (axis == Axis::rows ? c.m : c.n) * sizeof(std::uint32_t);
  std::vector<unsigned char> raw(out_bytes);
  if (out_bytes == 0) return raw;
  DeviceBuffer in(d, host.size() + 16);
  if (!host.empty()) d.upload(in.get(), host.data(), host.size());
  DeviceBuffer scratch(d, k.depth_scratch_bytes(c.m, c.n, d.shape()));
  DeviceBuffer out(d, out_bytes);
  d.poison(out.get(), out_bytes);
  k.measure_depth(in.get(), c.m, c.n, scratch.get(), out.get(), d.shape(), d.stream());
  d.synchronize();
  d.download(raw.data(), out.get(), out_bytes);
  return raw;
}

std::optional<std::string> matrix_depth_failure(Axis axis, const MatrixKernels& k,
                                                const MatrixCase& c, const DeviceShape& shape,
                                                const std::vector<unsigned char>& raw,
                                                std::string_view idea) {
  const std::uint64_t outputs = axis == Axis::rows ? c.m : c.n;
  const std::string line = axis == Axis::rows ? "row" : "column";
  if (raw.size() != outputs * sizeof(std::uint32_t))
    return "returned " + std::to_string(raw.size() / sizeof(std::uint32_t)) + " depths for " +
           std::to_string(outputs) + " " + line + "s";
  if (outputs == 0) return std::nullopt;  // nothing to check (and no plan: nothing launched)
  const std::uint64_t plan = k.depth(ReduceOp::sum, DType::f32, c.m, c.n, shape);
  std::uint64_t over = 0, first = 0, longest = 0;
  for (std::uint64_t i = 0; i < outputs; ++i) {
    std::uint32_t got = 0;
    std::memcpy(&got, raw.data() + i * sizeof got, sizeof got);
    if (got == ~std::uint32_t{0})
      return line + " " + std::to_string(i) +
             " was never written: it still holds the poison 0xFFFFFFFF written before the run";
    if (got > plan && over++ == 0) first = i;
    longest = std::max<std::uint64_t>(longest, got);
  }
  if (over == 0) return std::nullopt;
  std::uint32_t got = 0;
  std::memcpy(&got, raw.data() + first * sizeof got, sizeof got);
  return std::string(idea_mark) + line + " " + std::to_string(first) + " came out of a chain of " +
         std::to_string(got) + " combines, one after another (" + std::to_string(over) + " of " +
         std::to_string(outputs) + " " + line + "s over, the longest " + std::to_string(longest) +
         "), where the plan's longest chain is " + std::to_string(plan) +
         " (plan: " + k.plan(ReduceOp::sum, DType::f32, c.m, c.n, shape) +
         "): " + std::string(idea);
}

std::optional<std::string> matrix_case_failure(Device& d, Axis axis, const MatrixKernels& k,
                                               const MatrixCase& c, ReduceOp op,
                                               std::vector<unsigned char>* bytes) {
  std::vector<unsigned char> raw = matrix_case_outputs(d, axis, k, c, op);
  auto why = matrix_outputs_failure(axis, k, c, op, d.shape(), raw);
  if (bytes) *bytes = std::move(raw);
  return why;
}

}  // namespace rl
