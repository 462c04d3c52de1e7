// Lesson 14's kernels compiled by nvcc for the GPU.
#include "lessons/14_row_reduce/rows_dispatch.h"

namespace rl::backend_gpu {
const RowsBackend& rows_table() { return this_backend_rows(Backend::gpu); }
}  // namespace rl::backend_gpu
