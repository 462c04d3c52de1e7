#pragma once
// Lessons 14 and 15's checks, shared by the simulator and GPU suites: a typed M x N matrix with ties
// planted along the reduced axis, uploaded at any element offset (so rows start misaligned), reduced
// through the lesson's host API, every output compared with the CPU reference. The simulator suites'
// graded cases go through matrix_case_failure (matrix_cases.h), the grader's own check.
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "common/host/device.h"
#include "common/host/typed.h"
#include "common/host/matrix_cases.h"
#include "common/host/matrix_main.h"
#include "tests/lessons/ops_checks.h"

namespace rl::test {

// The lessons' own input (matrix_cases.h): seeded values with ties planted along each reduced line.
using rl::matrix_input;

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
