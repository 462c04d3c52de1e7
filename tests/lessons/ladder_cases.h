#pragma once
// The ladder (lessons 01-16) in the simulator and GPU suites, so that both backends answer
// the same questions: which lessons have plans on a backend, and one checked run of a plan.
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
CaseResult run_case(Device& device, const Plan& r, std::uint64_t n, unsigned block,
                    std::uint64_t seed, Distribution d);

}  // namespace rl::test
