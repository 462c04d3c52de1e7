#pragma once
// The whole ladder at one size, as one table: what the main job prints and the benchmark records.
#include <ostream>
#include <vector>

#include "common/host/session.h"

namespace rl {

// Runs every registered plan of the session's backend at the session's current size.
// Each plan runs with block_for(plan, block, block_given).
std::vector<CaseResult> run_ladder(Session& session, unsigned block, bool block_given,
                                   bool time_it);

// lesson | kernel | time | GB/s | % of ceiling | x lesson 01 | x CUB | verified
void print_ladder_table(std::ostream& out, const std::vector<CaseResult>& results,
                        const Baseline* baseline);

}  // namespace rl
