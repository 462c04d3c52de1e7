// Lesson 15's kernels compiled by g++ for the CPU simulator.
#include "lessons/15_column_reduce/columns_dispatch.h"

namespace rl::backend_sim {
const ColumnsBackend& columns_table() { return this_backend_columns(Backend::sim); }
}  // namespace rl::backend_sim
