#pragma once
// One way to launch a kernel from a lesson's plan, whichever backend compiles it: nvcc gets a real
// <<<grid, block, smem, stream>>> launch with its error checked; g++ gets the simulator, which
// cannot parse <<<>>>. So a plan writes
//     launch("name", kernel, grid, block, smem, stream, args...);
// for what CUDA spells kernel<<<grid, block, smem, stream>>>(args...).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/cuda_compat.h"
#include "common/device/ceil_div.cuh"  // ceil_div, for the grid sizes every plan computes
#include "common/host/launch_observer.h"
#include "common/host/plan.h"
#if defined(__CUDACC__)
#include "common/backends/gpu/check.h"
#endif

namespace rl {

// The backend this translation unit is compiled for: what a plan.cu's lesson_plans<N, this_backend>
// defines.
#if defined(__CUDACC__)
inline constexpr Backend this_backend = Backend::gpu;
#else
inline constexpr Backend this_backend = Backend::sim;
#endif

}  // namespace rl

RL_NAMESPACE_BEGIN

template <class... Params, class... Args>
void launch(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
            std::size_t smem_bytes, void* stream, Args... args) {
  if (const auto& observe = launch_observer())
    observe(LaunchShape{name, grid.x * grid.y * grid.z, block.x * block.y * block.z});
#if defined(__CUDACC__)
  kernel<<<grid, block, smem_bytes, static_cast<cudaStream_t>(stream)>>>(
      static_cast<Params>(args)...);
  // a bad configuration fails here, with the kernel's name, not at the next sync
  check_launch(name);
#else
  (void)stream;  // the simulator runs launches in order, like one stream
  sim::launch(name, kernel, grid, block, smem_bytes, static_cast<Params>(args)...);
#endif
}

// Zeroes device memory in stream order (an atomic finish needs a zeroed total before it adds).
inline void zero_async(void* dst, std::size_t bytes, void* stream) {
#if defined(__CUDACC__)
  RL_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, static_cast<cudaStream_t>(stream)));
#else
  (void)stream;
  std::memset(dst, 0, bytes);
#endif
}

// Copies device memory to the host and waits for it (for plans whose last step runs on the host).
inline void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream) {
#if defined(__CUDACC__)
  RL_CUDA_CHECK(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(stream)));
  RL_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
#else
  (void)stream;
  std::memcpy(dst, src, bytes);
#endif
}

// Copies host memory to the device in stream order; the host buffer must outlive the copy, so
// this waits too.
inline void copy_to_device(void* dst, const void* src, std::size_t bytes, void* stream) {
#if defined(__CUDACC__)
  RL_CUDA_CHECK(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, static_cast<cudaStream_t>(stream)));
  RL_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
#else
  (void)stream;
  std::memcpy(dst, src, bytes);
#endif
}

RL_NAMESPACE_END
