#pragma once
// Lessons 19 and 20's checks (tests/lessons/checks.h names them), shared by the simulator and GPU
// suites: a typed M x N matrix with ties planted along the reduced axis (matrix_input), uploaded at
// any element offset (so rows start misaligned), reduced through the lesson's API, every output
// compared with the CPU reference.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/host/device.h"
#include "common/host/matrix_cases.h"
#include "common/host/typed.h"
#include "tests/lessons/checks.h"

namespace rl::test {

// Every operator of graded case c, through the grader's own check (matrix_case_failure).
inline void check_graded_case(Device& d, Axis axis, const MatrixKernels& kernels,
                              const MatrixCase& c) {
  for (const ReduceOp op : c.ops)
    check_no_failure(describe(axis, c, op), matrix_case_failure(d, axis, kernels, c, op));
}

// A lesson's run (run_rows, run_columns, run_columns_atomic) and the depth its tolerance comes
// from.
using MatrixRun = std::function<std::vector<OpValue>(Device&, ReduceOp, DType, const void*,
                                                     std::uint64_t, std::uint64_t)>;
using MatrixDepth =
    std::function<std::uint64_t(ReduceOp, DType, std::uint64_t, std::uint64_t, const DeviceShape&)>;

// op along `axis` of the m x n matrix `host` (type t), `offset` elements past an aligned address.
inline void check_reduction(Device& d, Axis axis, const MatrixRun& run, const MatrixDepth& depth,
                            ReduceOp op, DType t, const std::vector<std::byte>& host,
                            std::uint64_t m, std::uint64_t n, unsigned offset = 0) {
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
  INFO(to_string(op) << " of " << m << "x" << n << " " << to_string(t) << " at offset " << offset
                     << ": " << wrong << " outputs wrong; first: output " << first_wrong << " got "
                     << got[first_wrong].value << " [" << got[first_wrong].index << "], expected "
                     << first_ref.expected.value << " [" << first_ref.expected.index
                     << "], tolerance " << first_ref.tolerance << ", depth " << dep);
  CHECK(wrong == 0);
}

// The kernels' own count of the longest chain of combines (reduce_ops.cuh's Depth operator) over
// the float32 matrix of case c's shape: every output written and none longer than the plan's depth
// (the grade's idea check, matrix_depth_failure), and none shorter than ceil(log2(L)) for lines of
// L elements, which no fold of L inputs by two-input combines can beat: a count that went missing
// would come out short.
inline void check_depth(Device& d, Axis axis, const MatrixKernels& k, MatrixCase c) {
  c.type = DType::f32, c.offset = 0;
  const std::vector<unsigned char> raw = matrix_depth_outputs(d, axis, k, c);
  const std::string what = "the depth of " + std::to_string(c.m) + "x" + std::to_string(c.n) +
                           (axis == Axis::rows ? " rows" : " columns");
  check_no_failure(what, matrix_depth_failure(axis, k, c, d.shape(), raw, "(the lesson's idea)"));
  const std::uint64_t length = axis == Axis::rows ? c.n : c.m;
  std::uint32_t fewest = 0;
  while (length > (std::uint64_t{1} << fewest)) ++fewest;
  if (raw.empty()) return;
  const std::uint64_t plan = k.depth(ReduceOp::sum, DType::f32, c.m, c.n, d.shape());
  for (std::size_t i = 0; i * sizeof(std::uint32_t) < raw.size(); ++i) {
    std::uint32_t got = 0;
    std::memcpy(&got, raw.data() + i * sizeof got, sizeof got);
    INFO(what << ", output " << i << ": depth " << got << ", at least " << fewest << ", plan "
              << plan);
    CHECK(got >= fewest);
    if (got < fewest) return;
  }
}

}  // namespace rl::test
