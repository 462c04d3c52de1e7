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

}  // namespace rl::test
