#pragma once
// Lesson 16's checks, shared by the simulator and GPU suites: a typed tensor laid out by the given
// strides, reduced over the given axes through the host API, every output compared with the CPU
// reference (lesson 13's typed_reference over that output's gathered elements). The check itself is
// the grader's (axes_cases.h: axes_case_failure), so the tests and `16_any_axes --grade` agree.
#include <catch2/catch.hpp>

#include <random>

#include "common/host/device.h"
#include "common/host/typed.h"
#include "lessons/16_any_axes/axes_api.h"
#include "lessons/16_any_axes/axes_cases.h"

namespace rl::test {

using Layout = AxesLayout;
using rl::random_layout;

// Uploads the tensor `offset` elements past an aligned allocation (offset 1: no 16-byte packs).
inline void check_axes(Device& d, ReduceOp op, DType t, const Layout& l, std::uint64_t seed, unsigned offset = 0) {
  const auto failure = axes_case_failure(d, l, op, t, seed, offset);
  INFO(describe(l, op, t, seed, offset) << ": " << failure.value_or("right"));
  CHECK_FALSE(failure);
}

}  // namespace rl::test
