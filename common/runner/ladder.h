#pragma once
// The whole ladder at one size, as one table: what the main job prints and the benchmark records.
#include <ostream>
#include <vector>

#include "common/host/session.h"

namespace rl {

// Runs every registered reducer of the session's backend at the session's current size.
// Each reducer runs with block_for(reducer, block, block_given).
std::vector<CaseResult> run_ladder(Session& session, unsigned block, bool block_given, bool time_it);

// lesson | kernel | time | GB/s | % of ceiling | x lesson 01 | x CUB | verified
void print_ladder_table(std::ostream& out, const std::vector<CaseResult>& results, const Baseline* baseline);

}  // namespace rl
