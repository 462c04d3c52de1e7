#pragma once
// One way to launch a kernel from a lesson's plan, whichever backend compiles it: nvcc gets a real
// <<<grid, block, smem, stream>>> launch with its error checked; g++ gets the simulator, which
// cannot parse <<<>>>. So a plan writes
//     launch("name", kernel, grid, block, smem, stream, args...);
// for what CUDA spells kernel<<<grid, block, smem, stream>>>(args...).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

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
  (void)stream;            // the simulator runs launches in order, like one stream
  if (sim::capturing()) {  // recorded into a graph (common/graph.h): run at each replay
    sim::record(
        [=] { sim::launch(name, kernel, grid, block, smem_bytes, static_cast<Params>(args)...); });
    return;
  }
  sim::launch(name, kernel, grid, block, smem_bytes, static_cast<Params>(args)...);
#endif
}

#if defined(__CUDACC__)
// A kernel's static shared memory, asked once per kernel (a launch must not pay for it each time).
inline std::size_t static_shared_bytes(const void* kernel, const char* name) {
  static std::mutex mutex;
  static std::map<const void*, std::size_t> known;
  const std::lock_guard lock(mutex);
  if (const auto it = known.find(kernel); it != known.end()) return it->second;
  cudaFuncAttributes attributes{};
  check_cuda(cudaFuncGetAttributes(&attributes, kernel), name);
  return known[kernel] = attributes.sharedSizeBytes;
}
#endif

// CUDA's launch attributes that the lessons use, for launch_ex.
#if defined(__CUDACC__)
struct LaunchAttributes {
  // Blocks per cluster along x (cudaLaunchAttributeClusterDimension {cluster_x, 1, 1}): they run
  // together on one GPC and can read each other's shared memory. 1 to 16 (over 8 is non-portable);
  // grid.x must be a multiple of it.
  unsigned cluster_x = 1;
  // cudaLaunchAttributeProgrammaticStreamSerialization: the grid may start before the grid launched
  // before it in the stream has finished; it waits for that one with cudaGridDependencySynchronize().
  bool programmatic_dependency = false;
};
#else
using LaunchAttributes = sim::LaunchAttributes;  // the same two fields
#endif

// launch() with launch attributes, for what CUDA spells
//     cudaLaunchConfig_t config = {grid, block, smem, stream, attributes, count};
//     cudaLaunchKernelEx(&config, kernel, args...);
// nvcc gets exactly that (and the opt-ins a cluster over 8 blocks or over 48 KiB of dynamic shared
// memory needs); g++ gets the simulator's launch_ex, which runs the grid at the next launch or host
// copy. A grid.x that is not a multiple of cluster_x is refused on both, before anything runs.
template <class... Params, class... Args>
void launch_ex(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block,
               std::size_t smem_bytes, void* stream, LaunchAttributes attrs, Args... args) {
  if (attrs.cluster_x == 0 || grid.x % attrs.cluster_x != 0)
    throw std::invalid_argument(
        "launch of kernel '" + std::string(name) + "': grid.x = " + std::to_string(grid.x) +
        " is not a multiple of the cluster size " + std::to_string(attrs.cluster_x) +
        " (CUDA requires whole clusters)");
  if (const auto& observe = launch_observer())
    observe(LaunchShape{name, grid.x * grid.y * grid.z, block.x * block.y * block.z});
#if defined(__CUDACC__)
  // Over 8 blocks a cluster is non-portable (H100: up to 16), and over 48 KiB of dynamic shared
  // memory a kernel must opt in; both are attributes of the kernel, set before the launch.
  if (attrs.cluster_x > 8)
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
               name);
  // The 48 KiB counts the kernel's static shared memory too: 48 KiB dynamic beside a static
  // barrier already needs the opt-in.
  if (smem_bytes > 0 &&
      static_shared_bytes(reinterpret_cast<const void*>(kernel), name) + smem_bytes > 48 * 1024)
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(smem_bytes)),
               name);
  cudaLaunchAttribute attributes[2];
  unsigned count = 0;
  if (attrs.cluster_x > 1) {
    attributes[count].id = cudaLaunchAttributeClusterDimension;
    attributes[count].val.clusterDim.x = attrs.cluster_x;
    attributes[count].val.clusterDim.y = 1;
    attributes[count].val.clusterDim.z = 1;
    ++count;
  }
  if (attrs.programmatic_dependency) {
    attributes[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[count].val.programmaticStreamSerializationAllowed = 1;
    ++count;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem_bytes;
  config.stream = static_cast<cudaStream_t>(stream);
  config.attrs = count > 0 ? attributes : nullptr;
  config.numAttrs = count;
  check_cuda(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...), name);
  check_launch(name);
#else
  (void)stream;            // the simulator runs launches in order, like one stream
  if (sim::capturing()) {  // recorded into a graph (common/graph.h): run at each replay
    sim::record([=] {
      sim::launch_ex(name, kernel, grid, block, smem_bytes, attrs, static_cast<Params>(args)...);
    });
    return;
  }
  sim::launch_ex(name, kernel, grid, block, smem_bytes, attrs, static_cast<Params>(args)...);
#endif
}

// Names a device buffer in the simulator's race reports ("partials[17]" rather than "global[17]");
// nothing on the GPU.
inline void name_buffer(const void* p, std::size_t bytes, const char* name) {
#if defined(__CUDACC__)
  (void)p, (void)bytes, (void)name;
#else
  sim::name_memory(p, bytes, name);
#endif
}

// Zeroes device memory in stream order (an atomic finish needs a zeroed total before it adds).
inline void zero_async(void* dst, std::size_t bytes, void* stream) {
#if defined(__CUDACC__)
  RL_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, static_cast<cudaStream_t>(stream)));
#else
  (void)stream;
  const auto zero = [dst, bytes] {
    sim::synchronize();  // a launch_ex grid before it runs first
    std::memset(dst, 0, bytes);
  };
  if (sim::capturing()) return sim::record(zero);  // in stream order at each replay
  zero();
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
  sim::synchronize();  // a launch_ex grid before it runs first
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
  sim::synchronize();  // a launch_ex grid before it runs first
  std::memcpy(dst, src, bytes);
#endif
}

RL_NAMESPACE_END
