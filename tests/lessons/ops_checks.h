#pragma once
// Lesson 18's checks (tests/lessons/checks.h names them), shared by the simulator and GPU suites:
// typed input with deliberate ties (ops_input, the data the grader reduces too), uploaded at any
// element offset, reduced through the lesson's API, compared with the CPU reference.
#include <catch2/catch.hpp>

#include <vector>

#include "common/host/device.h"
#include "common/host/typed.h"
#include "lessons/18_operators_and_types/ops_api.h"
#include "tests/lessons/checks.h"

namespace rl::test {

// op over the n elements of `host` (type t), `offset` elements past an aligned address.
inline void check_reduction(Device& d, ReduceOp op, DType t, const std::vector<std::byte>& host,
                            std::uint64_t n, unsigned offset = 0) {
  const OffsetInput in(d, t, host, offset);
  const OpValue got = run_op(d, op, t, in.at, n);
  const std::uint64_t depth = ops_kernels(d.backend())->depth(op, t, n, d.shape());
  const OpReference ref = typed_reference(op, t, host.data(), n, depth);
  INFO(to_string(op) << " of " << n << " " << to_string(t) << " at offset " << offset << ": got "
                     << got.value << " [" << got.index << "], expected " << ref.expected.value
                     << " [" << ref.expected.index << "], tolerance " << ref.tolerance << ", depth "
                     << depth);
  CHECK(matches(ref, got, op));
}

// The kernel's own count of the longest chain of combines behind its result (reduce_ops.cuh's
// Depth operator) over n float32 elements: written, no longer than the plan's depth (the grade's
// idea check) and no shorter than ceil(log2(n)), which no fold of n inputs by two-input combines
// can beat: a count that went missing would come out short.
inline void check_depth(Device& d, std::uint64_t n) {
  const std::vector<std::byte> host = ops_input(DType::f32, n, 13);
  const OffsetInput in(d, DType::f32, host, 0);
  const std::uint32_t got = run_depth(d, in.at, n);
  const std::uint64_t plan =
      ops_kernels(d.backend())->depth(ReduceOp::sum, DType::f32, n, d.shape());
  std::uint32_t fewest = 0;
  while (n > (std::uint64_t{1} << fewest)) ++fewest;
  INFO("the depth at n=" << n << ": " << got << ", at least " << fewest << ", plan " << plan);
  CHECK(got >= fewest);
  CHECK(got <= plan);
}

}  // namespace rl::test
