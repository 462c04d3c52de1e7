#pragma once
// The cases every lesson is tested on, shared by the simulator suite and the GPU suite so both
// backends answer the same questions: sizes around block edges, several seeds, exact integer data.
#include <cstdint>
#include <vector>

#include "common/host/course.h"
#include "common/host/device.h"
#include "common/host/input.h"
#include "common/host/session.h"

namespace rl::test {


// The lesson numbers with a plan on this backend.
std::vector<int> lessons_on(Backend b);

// Runs one plan on n values of (seed, distribution) and returns its checked result.
CaseResult run_case(Device& device, const Plan& r, std::uint64_t n, unsigned block, std::uint64_t seed,
                    Distribution d);

}  // namespace rl::test
