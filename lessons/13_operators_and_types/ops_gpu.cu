// Lesson 13's kernels compiled by nvcc for the GPU.
#include "lessons/13_operators_and_types/ops_dispatch.h"

namespace rl::backend_gpu {
const OpsBackend& ops_table() { return this_backend_ops(Backend::gpu); }
}  // namespace rl::backend_gpu
