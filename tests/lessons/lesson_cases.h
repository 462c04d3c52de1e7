#pragma once
// The cases every lesson is tested on, shared by the simulator suite and the GPU suite so both
// backends answer the same questions: sizes around block edges, several seeds, exact integer data.
#include <cstdint>
#include <vector>

#include "common/host/device.h"
#include "common/host/input.h"
#include "common/host/session.h"

namespace rl::test {

// {0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1, 2^20}, plus 2^24+3 when `huge`.
std::vector<std::uint64_t> foundation_sizes(bool huge);
inline constexpr std::uint64_t seeds[] = {1, 20240601, 0x5eed5eedULL};

// The lesson numbers with a reducer on this backend.
std::vector<int> lessons_on(Backend b);
std::vector<Reducer> reducers_of(int lesson, Backend b);

// Runs one reducer on n values of (seed, distribution) and returns its checked result.
CaseResult run_case(Device& device, const Reducer& r, std::uint64_t n, unsigned block, std::uint64_t seed,
                    Distribution d);

}  // namespace rl::test
