// Lesson 16's kernels compiled by nvcc for the GPU.
#include "lessons/16_any_axes/axes_dispatch.h"

namespace rl::backend_gpu {
const AxesBackend& axes_table() { return this_backend_axes(Backend::gpu); }
}  // namespace rl::backend_gpu
