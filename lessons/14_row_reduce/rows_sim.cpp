// Lesson 14's kernels compiled by g++ for the CPU simulator.
#include "lessons/14_row_reduce/rows_dispatch.h"

namespace rl::backend_sim {
const RowsBackend& rows_table() { return this_backend_rows(Backend::sim); }
}  // namespace rl::backend_sim
