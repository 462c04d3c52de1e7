#pragma once
// A reduction that loses one block's share of the input, for the tests that show which checks see it.
#include "common/host/plan.h"

namespace rl::test {

// Lesson 03's kernel, launched by a plan with a classic off-by-one: the second pass is told one
// partial fewer than the first pass wrote, so the last block's partial (the last 256 inputs, with
// 256-thread blocks) is never added. Defined in dropped_block_plan.cu, compiled once per backend.
template <Backend B>
Plan dropped_block_plan();

}  // namespace rl::test
