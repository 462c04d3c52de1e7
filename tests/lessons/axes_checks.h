#pragma once
// Lesson 21's checks (tests/lessons/checks.h names them), shared by the simulator and GPU suites: a
// typed tensor laid out by the given strides, reduced over the given axes through the lesson's API,
// every output compared with the CPU reference. The check itself is the grader's (axes_cases.h:
// axes_case_failure), so the tests and `21_any_axes --grade` agree.
#include <catch2/catch.hpp>

#include "common/host/device.h"
#include "common/host/typed.h"
#include "lessons/21_any_axes/axes_api.h"
#include "lessons/21_any_axes/axes_cases.h"
#include "tests/lessons/checks.h"

namespace rl::test {

// op over the tensor of layout l (type t, seeded input), `offset` elements past an aligned address
// (offset 1: no 16-byte packs).
inline void check_reduction(Device& d, ReduceOp op, DType t, const AxesLayout& l,
                            std::uint64_t seed, unsigned offset = 0) {
  check_no_failure(describe(l, op, t, seed, offset), axes_case_failure(d, l, op, t, seed, offset));
}

// Every type and operator of graded case c.
inline void check_graded_case(Device& d, const AxesCase& c) {
  for (const DType t : c.types)
    for (const ReduceOp op : c.ops) check_reduction(d, op, t, c.layout, c.seed, c.offset);
}

}  // namespace rl::test
