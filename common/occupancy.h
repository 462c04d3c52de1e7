#pragma once
// How many blocks of a kernel one SM holds at once, which a persistent grid (lessons 07-13) is sized
// from, and how many clusters of them the whole GPU holds (lesson 13: a cluster's
// blocks must all fit in one GPC, so that can be fewer than the blocks / the cluster size). On the GPU: the occupancy API, which knows what the compiler made of the kernel
// (its registers and static shared memory) as well as the SM's limits. On the simulator: the limits
// of the simulated device's shape alone (threads, blocks and shared memory an SM takes), since a
// kernel compiled by g++ has no registers to count.
#include <algorithm>
#include <cstddef>

#include "common/cuda_compat.h"
#include "common/host/plan.h"
#if defined(__CUDACC__)
#include <map>
#include <mutex>
#include <tuple>

#include "common/backends/gpu/check.h"
#endif

RL_NAMESPACE_BEGIN

// The blocks of `block` threads, each with `shared_bytes` of shared memory, that the shape's limits
// let one SM hold at once: the simulator's answer, and the GPU's before registers count.
inline unsigned shape_blocks_per_sm(unsigned block, std::size_t shared_bytes,
                                    const DeviceShape& s) {
  const unsigned by_threads =
      std::min(s.max_threads_per_sm / std::max(block, 1u), s.max_blocks_per_sm);
  if (shared_bytes == 0) return by_threads;
  const std::size_t by_shared =
      s.shared_bytes_per_sm / (shared_bytes + s.reserved_shared_per_block);
  return static_cast<unsigned>(std::min<std::size_t>(by_threads, by_shared));
}

#if defined(__CUDACC__)
// The occupancy API's answer, asked once per kernel, block size, dynamic shared memory and device
// and then remembered: a plan asks before every launch, and a timed call must not pay for it.
inline KernelResources gpu_kernel_resources(const void* kernel, unsigned block,
                                            std::size_t dynamic_shared) {
  int device = 0;
  RL_CUDA_CHECK(cudaGetDevice(&device));
  using Key = std::tuple<const void*, unsigned, std::size_t, int>;
  static std::mutex mutex;
  static std::map<Key, KernelResources> known;
  const Key key{kernel, block, dynamic_shared, device};
  const std::lock_guard lock(mutex);
  if (const auto it = known.find(key); it != known.end()) return it->second;
  cudaFuncAttributes attributes{};
  RL_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  int blocks = 0;
  RL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, kernel, static_cast<int>(block), dynamic_shared));
  return known[key] = KernelResources{static_cast<unsigned>(blocks),
                                      static_cast<unsigned>(attributes.numRegs),
                                      attributes.sharedSizeBytes + dynamic_shared};
}
#endif

// What an SM holds of `kernel` launched with `block` threads and `dynamic_shared` bytes of dynamic
// shared memory: the occupancy API on the GPU, the shape's limits on the simulator.
template <class... Params>
KernelResources kernel_resources(void (*kernel)(Params...), unsigned block,
                                 std::size_t dynamic_shared, const DeviceShape& s) {
#if defined(__CUDACC__)
  (void)s;  // the API asks the device itself
  return gpu_kernel_resources(reinterpret_cast<const void*>(kernel), block, dynamic_shared);
#else
  (void)kernel;
  return KernelResources{shape_blocks_per_sm(block, dynamic_shared, s), 0, dynamic_shared};
#endif
}

// Blocks of `kernel` (`block` threads, `dynamic_shared` bytes) resident on the whole GPU at once.
template <class... Params>
unsigned resident_blocks(void (*kernel)(Params...), unsigned block, std::size_t dynamic_shared,
                         const DeviceShape& s) {
  return s.sm_count * kernel_resources(kernel, block, dynamic_shared, s).blocks_per_sm;
}

// Clusters of `cluster` such blocks resident on the GPU at once: CUDA's cluster occupancy query on
// the GPU (asked once per question, as above), the resident blocks / cluster on the simulator,
// which has no GPCs.
template <class... Params>
unsigned resident_clusters(void (*kernel)(Params...), unsigned block, std::size_t dynamic_shared,
                           unsigned cluster, const DeviceShape& s) {
#if defined(__CUDACC__)
  (void)s;
  const auto* key = reinterpret_cast<const void*>(kernel);
  using Key = std::tuple<const void*, unsigned, std::size_t, unsigned>;
  static std::mutex mutex;
  static std::map<Key, unsigned> known;
  const std::lock_guard lock(mutex);
  const Key k{key, block, dynamic_shared, cluster};
  if (const auto it = known.find(k); it != known.end()) return it->second;
  cudaLaunchAttribute dims{};
  dims.id = cudaLaunchAttributeClusterDimension;
  dims.val.clusterDim.x = cluster;
  dims.val.clusterDim.y = 1;
  dims.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(cluster);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = dynamic_shared;
  config.attrs = &dims;
  config.numAttrs = 1;
  int clusters = 0;
  RL_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, key, &config));
  return known[k] = static_cast<unsigned>(clusters);
#else
  return resident_blocks(kernel, block, dynamic_shared, s) / cluster;
#endif
}

// Clusters of more than 8 blocks are not portable (a GPU need not have GPCs that hold them): a
// kernel launches in clusters of 16 on an H100 only once it has opted in.
template <class... Params>
void allow_nonportable_clusters(void (*kernel)(Params...)) {
#if defined(__CUDACC__)
  RL_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                     cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
#else
  (void)kernel;  // the simulator has no GPCs to fit
#endif
}

RL_NAMESPACE_END
