// Lesson 15's kernels compiled by nvcc for the GPU.
#include "lessons/15_column_reduce/columns_dispatch.h"

namespace rl::backend_gpu {
const ColumnsBackend& columns_table() { return this_backend_columns(Backend::gpu); }
}  // namespace rl::backend_gpu
