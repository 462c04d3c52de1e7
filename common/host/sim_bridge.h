#pragma once
// Hands the command line's simulator settings (lane schedule, host threads, seed, race checking) to
// the simulator.
#include "common/host/cli.h"

namespace rl {
void apply_simulator_options(const RunOptions& o);
}
