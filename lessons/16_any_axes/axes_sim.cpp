// Lesson 16's kernels compiled by g++ for the CPU simulator.
#include "lessons/16_any_axes/axes_dispatch.h"

namespace rl::backend_sim {
const AxesBackend& axes_table() { return this_backend_axes(Backend::sim); }
}  // namespace rl::backend_sim
