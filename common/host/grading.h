#pragma once
// Grading: the cases every lesson kernel must pass, shared by the Catch2 suites (which assert each
// one) and the student grader (which stops at the first failure and says why in one line).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/host/device.h"
#include "common/host/input.h"
#include "common/host/session.h"

namespace rl {

struct GradeCase {
  std::uint64_t n = 0;
  unsigned block = 256;
  std::uint64_t seed = 1;
  Distribution distribution = Distribution::uniform;
  bool exact = false;  // integer data with sums below 2^24: every partial sum is exact, so the total must be
};

inline constexpr std::uint64_t grade_seeds[] = {1, 20240601, 0x5eed5eedULL};

// {0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1, 2^20}, plus 2^24+3 when `huge`.
std::vector<std::uint64_t> graded_sizes(bool huge);

// In order, smallest first within each group: every size with three seeds (one above 2^16), exact
// integer data at each size up to 2^20, and every other block size one past a block, at 1000 and at
// 67 blocks less three.
std::vector<GradeCase> graded_cases(bool huge);

// "n=257 block=256 seed=1 uniform"
std::string describe(const GradeCase& c);

// Runs one case of plan r (a fresh input of the case's seed and distribution).
CaseResult run_graded_case(Device& device, const Plan& r, const GradeCase& c);

// Why a result fails its case, in one line; nullopt when it passes.
std::optional<std::string> failure_of(const CaseResult& r, const GradeCase& c);

// The verdict on one lesson: every variant over every case, stopping at the first failure.
struct Grade {
  bool passed = false;
  std::size_t cases_run = 0;
  std::string failure;  // one line: the case and what went wrong
};

// `progress` is told each case before it runs (so a watchdog can tell a hang from slow work).
// Kernel errors the simulator throws (a barrier not reached, a bad mask) become the failure line.
// On the simulator, a kernel that passes is run again under the other two schedules: a result that
// changes with the order of the threads is a race.
Grade grade_plans(Device& device, const std::vector<Plan>& plans, const RunOptions& options,
                     const std::function<void(const std::string&)>& progress);

}  // namespace rl
