#pragma once
// One way to launch a kernel from a lesson's host code, whichever backend compiles it: nvcc gets a
// real <<<grid, block, smem, stream>>> launch with its error checked; g++ gets the simulator.
#include <cstddef>
#include <cstdint>

#include "common/cuda_compat.h"
#if defined(__CUDACC__)
#include "common/gpu/check.h"
#endif

namespace rl {
inline namespace RL_BACKEND_NS {

template <class... Params, class... Args>
void launch(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem_bytes,
            void* stream, Args... args) {
#if defined(__CUDACC__)
  kernel<<<grid, block, smem_bytes, static_cast<cudaStream_t>(stream)>>>(static_cast<Params>(args)...);
  check_launch(name);  // a bad configuration fails here, with the kernel's name, not at the next sync
#else
  (void)stream;  // the simulator runs launches in order, like one stream
  sim::launch(name, kernel, grid, block, smem_bytes, static_cast<Params>(args)...);
#endif
}

// ceil(a / b) for the grid sizes every plan computes.
__host__ __device__ constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace RL_BACKEND_NS
}  // namespace rl
