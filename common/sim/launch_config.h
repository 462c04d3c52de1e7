// What one kernel launch is: a type-erased kernel call plus its geometry.
#pragma once
#include <cstddef>

#include "common/sim/options.h"
#include "common/sim/vector_types.h"

namespace rl::sim::detail {

// Calls the kernel with the bound arguments (each CUDA thread gets its own copies).
struct KernelCall {
  void (*invoke)(const void* bound);
  const void* bound;
};

struct LaunchConfig {
  const char* kernel_name;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_smem_bytes;
  KernelCall call;
  Options options;  // snapshot taken when the launch starts
  // Launch attributes (rl::sim::LaunchAttributes): blocks per cluster along x, and whether the
  // grid may start before the grid launched before it has finished.
  unsigned cluster_x = 1;
  bool programmatic_dependency = false;
};

}  // namespace rl::sim::detail
