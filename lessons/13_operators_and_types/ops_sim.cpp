// Lesson 13's kernels compiled by g++ for the CPU simulator.
#include "lessons/13_operators_and_types/ops_dispatch.h"

namespace rl::backend_sim {
const OpsBackend& ops_table() { return this_backend_ops(Backend::sim); }
}  // namespace rl::backend_sim
