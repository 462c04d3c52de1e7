// Host API: launching a kernel on the simulator.
#pragma once
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common/sim/grid_launcher.h"
#include "common/sim/options.h"
#include "common/sim/runtime.h"
#include "common/sim/vector_types.h"

namespace rl::sim {

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
  const Bound bound{kernel, Tuple(std::forward<Args>(args)...)};
  const detail::KernelCall call{[](const void* p) {
                                  const Bound& b = *static_cast<const Bound*>(p);
                                  std::apply(b.kernel, b.args);
                                },
                                &bound};
  detail::run_grid(
      detail::LaunchConfig{kernel_name, grid, block, dynamic_smem_bytes, call, options()});
}

}  // namespace rl::sim

namespace rl {

// The running block's dynamic shared memory, viewed as T (see rl::sim::dynamic_shared_base).
template <class T>
inline T* dynamic_shared() {
  return static_cast<T*>(sim::dynamic_shared_base());
}

}  // namespace rl
