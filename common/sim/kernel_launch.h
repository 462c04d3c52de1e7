// Host API: launching a kernel on the simulator.
#pragma once
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common/sim/grid_launcher.h"
#include "common/sim/options.h"
#include "common/sim/runtime.h"
#include "common/sim/vector_types.h"

namespace rl::sim {

// Runs every launch_ex grid that has not run yet; throws the KernelError of a failed one.
void synchronize();

// Runs kernel<<<grid, block, dynamic_smem_bytes>>>(args...) to completion on the CPU.
// Throws std::invalid_argument for a bad configuration and KernelError if any block
// fails (the launch stops; all fibers are unwound). Arguments are converted to the
// kernel's parameter types once; every CUDA thread receives its own copies.
template <class... Params, class... Args>
void launch(const char* kernel_name, void (*kernel)(Params...), dim3 grid, dim3 block,
            std::size_t dynamic_smem_bytes, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "rl::sim::launch: the number of arguments does not match the kernel's parameters");
  using Tuple = std::tuple<std::decay_t<Params>...>;
  struct Bound {
    void (*kernel)(Params...);
    Tuple args;
  };
  synchronize();  // a launch_ex grid before this one runs first
  const Bound bound{kernel, Tuple(std::forward<Args>(args)...)};
  const detail::KernelCall call{[](const void* p) {
                                  const Bound& b = *static_cast<const Bound*>(p);
                                  std::apply(b.kernel, b.args);
                                },
                                &bound};
  detail::run_grid(
      detail::LaunchConfig{kernel_name, grid, block, dynamic_smem_bytes, call, options()});
}

// CUDA's launch attributes that ReduceLab uses (cudaLaunchKernelEx's cudaLaunchAttribute list).
struct LaunchAttributes {
  // Blocks per cluster along x (cudaLaunchAttributeClusterDimension {cluster_x, 1, 1}): they run
  // together and share their shared memory (cooperative_groups::cluster_group). 1 to 16; grid.x
  // must be a multiple of it.
  unsigned cluster_x = 1;
  // cudaLaunchAttributeProgrammaticStreamSerialization: the grid may start before the grid
  // launched before it has finished; cudaGridDependencySynchronize() waits for that one.
  bool programmatic_dependency = false;
};

namespace detail {
// Queues a launch_ex launch (see below); `bound` owns its arguments.
void launch_deferred(const LaunchConfig& config, std::shared_ptr<const void> bound);
}  // namespace detail

// kernel<<<grid, block, dynamic_smem_bytes>>>(args...) with launch attributes, as
// cudaLaunchKernelEx. Unlike launch(), it returns before the grid has run, as on a GPU: the grid
// runs at the next launch or synchronize() (the host copies of common/launch.h and the simulator
// device's synchronize() call it), and its KernelError is thrown there. Until then a grid launched
// with programmatic_dependency can start before it (see cudaGridDependencySynchronize, pdl.h). A
// bad configuration (grid.x not a multiple of cluster_x, say) throws std::invalid_argument at once.
template <class... Params, class... Args>
void launch_ex(const char* kernel_name, void (*kernel)(Params...), dim3 grid, dim3 block,
               std::size_t dynamic_smem_bytes, LaunchAttributes attributes, Args&&... args) {
  static_assert(
      sizeof...(Params) == sizeof...(Args),
      "rl::sim::launch_ex: the number of arguments does not match the kernel's parameters");
  using Tuple = std::tuple<std::decay_t<Params>...>;
  struct Bound {
    void (*kernel)(Params...);
    Tuple args;
  };
  auto bound = std::make_shared<const Bound>(Bound{kernel, Tuple(std::forward<Args>(args)...)});
  const detail::KernelCall call{[](const void* p) {
                                  const Bound& b = *static_cast<const Bound*>(p);
                                  std::apply(b.kernel, b.args);
                                },
                                bound.get()};
  detail::launch_deferred(
      detail::LaunchConfig{kernel_name, grid, block, dynamic_smem_bytes, call, options(),
                           attributes.cluster_x, attributes.programmatic_dependency},
      std::move(bound));
}

}  // namespace rl::sim

namespace rl {

// The running block's dynamic shared memory, viewed as T (see rl::sim::dynamic_shared_base).
template <class T>
inline T* dynamic_shared() {
  return static_cast<T*>(sim::dynamic_shared_base());
}

}  // namespace rl
