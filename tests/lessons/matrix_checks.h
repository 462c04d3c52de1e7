#pragma once
// Lessons 14 and 15's checks, shared by the simulator and GPU suites: a typed M x N matrix with ties
// planted along the reduced axis, uploaded at any element offset (so rows start misaligned), reduced
// through the lesson's host API, every output compared with the CPU reference.
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "common/host/device.h"
#include "common/host/typed.h"
#include "lessons/14_row_reduce/matrix_main.h"
#include "tests/lessons/ops_checks.h"

namespace rl::test {

// Seeded values; along each reduced line (a row, or a column) the largest value sits at three
// places, two of them neighbours, and the smallest likewise: argmax must return the first.
inline std::vector<std::byte> matrix_input(Axis axis, DType t, std::uint64_t m, std::uint64_t n, std::uint64_t seed) {
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

using MatrixRun = std::function<std::vector<OpValue>(Device&, ReduceOp, DType, const void*, std::uint64_t, std::uint64_t)>;
using MatrixDepth = std::function<std::uint64_t(ReduceOp, DType, std::uint64_t, std::uint64_t, const DeviceShape&)>;

inline void check_matrix(Device& d, Axis axis, const MatrixRun& run, const MatrixDepth& depth, ReduceOp op, DType t,
                         const std::vector<std::byte>& host, std::uint64_t m, std::uint64_t n, unsigned offset = 0) {
  const OffsetInput in(d, t, host, offset);
  const std::vector<OpValue> got = run(d, op, t, in.at, m, n);
  const std::uint64_t outputs = axis == Axis::rows ? m : n;
  REQUIRE(got.size() == outputs);
  const std::uint64_t dep = depth(op, t, m, n, d.shape());
  std::vector<std::byte> gather;
  std::uint64_t wrong = 0, first_wrong = 0;
  OpReference first_ref;
  for (std::uint64_t i = 0; i < outputs; ++i) {
    const OpReference ref = matrix_reference(axis, op, t, host.data(), m, n, i, dep, gather);
    if (!matches(ref, got[i], op)) {
      if (wrong++ == 0) first_wrong = i, first_ref = ref;
    }
  }
  INFO(to_string(op) << " of " << m << "x" << n << " " << to_string(t) << " at offset " << offset << ": " << wrong
                     << " outputs wrong; first: output " << first_wrong << " got " << got[first_wrong].value << " ["
                     << got[first_wrong].index << "], expected " << first_ref.expected.value << " ["
                     << first_ref.expected.index << "], tolerance " << first_ref.tolerance << ", depth " << dep);
  CHECK(wrong == 0);
}

}  // namespace rl::test
