// The matrix lessons' graded cases: the input, the reference and the one check the tests and the grader share.
#include "common/host/matrix_cases.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "common/host/table.h"
#include "common/host/typed_outputs.h"

namespace rl {

std::vector<ReduceOp> all_op_list() { return {std::begin(all_ops), std::end(all_ops)}; }

std::vector<MatrixCase> smallest_first(std::vector<MatrixCase> cases) {
  std::stable_sort(cases.begin(), cases.end(),
                   [](const MatrixCase& a, const MatrixCase& b) {
                     return a.offset != b.offset ? a.offset < b.offset : a.m * a.n < b.m * b.n;
                   });
  return cases;
}

OpReference matrix_reference(Axis axis, ReduceOp op, DType t, const std::byte* data, std::uint64_t m, std::uint64_t n,
                             std::uint64_t i, std::uint64_t depth, std::vector<std::byte>& gather) {
  const std::size_t e = dtype_bytes(t);
  if (axis == Axis::rows) return typed_reference(op, t, data + i * n * e, n, depth);
  gather.resize(m * e);
  for (std::uint64_t r = 0; r < m; ++r) std::memcpy(gather.data() + r * e, data + (r * n + i) * e, e);
  return typed_reference(op, t, gather.data(), m, depth);
}

std::string describe(Axis axis, const MatrixCase& c, ReduceOp op) {
  std::string s = std::string(to_string(op)) + " of " + std::string(to_string(c.type)) + ", " + std::to_string(c.m) +
                  "x" + std::to_string(c.n) + (axis == Axis::rows ? " rows" : " columns") + ", seed " +
                  std::to_string(c.seed);
  if (c.offset) s += ", " + std::to_string(c.offset) + " element" + (c.offset == 1 ? "" : "s") + " past 16 bytes";
  return s;
}

std::vector<std::byte> matrix_input(Axis axis, DType t, std::uint64_t m, std::uint64_t n, std::uint64_t seed) {
  std::vector<std::byte> data(m * n * dtype_bytes(t));
  fill_typed(data.data(), t, m * n, seed, Distribution::uniform);
  const std::uint64_t lines = axis == Axis::rows ? m : n, length = axis == Axis::rows ? n : m;
  if (length >= 8) {
    const double big = t == DType::i32 ? 5000.0 : 2.0, small = -big;  // beyond every seeded value
    for (std::uint64_t l = 0; l < lines; ++l) {
      auto at = [&](std::uint64_t k) { return axis == Axis::rows ? l * n + k : k * n + l; };
      for (const std::uint64_t k : {length / 3, length / 3 + 1, length - 1}) store_element(t, data.data(), at(k), big);
      for (const std::uint64_t k : {length / 5, length / 2, length - 2}) store_element(t, data.data(), at(k), small);
    }
  }
  return data;
}

namespace {

std::string show(const OpValue& v, ReduceOp op) {
  return general(v.value, 9) + (has_index(op) ? " at index " + std::to_string(v.index) : std::string());
}

}  // namespace

std::optional<std::string> matrix_case_failure(Device& d, Axis axis, const MatrixEntries& e, const MatrixCase& c,
                                               ReduceOp op, std::vector<unsigned char>* bytes) {
  const std::vector<std::byte> host = matrix_input(axis, c.type, c.m, c.n, c.seed);
  const std::size_t width = dtype_bytes(c.type);
  DeviceBuffer buffer(d, host.size() + 16 + c.offset * width);  // allocations are 256-byte aligned
  std::byte* at = buffer.get<std::byte>() + c.offset * width;
  if (!host.empty()) d.upload(at, host.data(), host.size());

  std::vector<unsigned char> raw = e.run_raw(d, op, c.type, at, c.m, c.n);
  const std::uint64_t outputs = axis == Axis::rows ? c.m : c.n;
  const std::size_t one = reduce_output_bytes(op, c.type);
  const char* line = axis == Axis::rows ? "row" : "column";
  if (raw.size() != outputs * one)
    return "returned " + std::to_string(raw.size() / one) + " outputs for " + std::to_string(outputs) + " " + line + "s";
  if (outputs == 0) return std::nullopt;  // nothing to check (and no plan: the kernels launch nothing)
  const std::uint64_t depth = e.depth(op, c.type, c.m, c.n, d.shape());
  std::vector<std::byte> gather;
  std::uint64_t wrong = 0;
  std::string first;
  for (std::uint64_t i = 0; i < outputs; ++i) {
    const OpReference ref = matrix_reference(axis, op, c.type, host.data(), c.m, c.n, i, depth, gather);
    const OpValue got = decode_output(op, c.type, raw.data(), i);
    if (matches(ref, got, op) || wrong++ > 0) continue;
    const auto begin = raw.begin() + static_cast<std::ptrdiff_t>(i * one);
    const bool unwritten = std::all_of(begin, begin + static_cast<std::ptrdiff_t>(one), [](unsigned char b) { return b == 0xFF; });
    first = std::string(line) + " " + std::to_string(i) + ": expected " + show(ref.expected, op) +
            (ref.tolerance > 0 ? " (within " + general(ref.tolerance, 3) + ")" : std::string()) +
            (unwritten ? ", but the output was never written (it still holds the poison bytes)" : ", got " + show(got, op));
  }
  if (bytes) *bytes = std::move(raw);
  if (wrong == 0) return std::nullopt;
  return first + " (" + std::to_string(wrong) + " of " + std::to_string(outputs) + " " + line + "s wrong; " +
         (c.offset ? "plan for aligned rows, but these are not, so the loads are single elements: " : "plan: ") +
         e.plan(op, c.type, c.m, c.n, d.shape()) + ")";
}

}  // namespace rl
