#pragma once
// Lesson 15's launch probe as the host reaches it: one launch of the empty kernel
// (launch_cost.cuh) on either backend, for the report's table of what a launch costs.
#include "common/host/plan.h"

namespace rl::launches {

// launch_probe<<<1, 32, 0, stream>>>(), with the programmatic-dependency attribute where asked; on
// backend B. Defined in plan.cu, which is compiled once per backend.
template <Backend B>
void launch_probe_kernel(void* stream, bool programmatic);

}  // namespace rl::launches
