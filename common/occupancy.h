#pragma once
// How many blocks, or clusters of blocks, of one kernel the whole GPU holds at once: the size of a
// persistent grid when the SM's thread count alone no longer decides it (lesson 20: a kernel's
// shared memory, or clusters, whose blocks must all fit in one GPC). A persistent grid larger
// than this would run its last blocks after the others, doubling the time. On the GPU CUDA's
// occupancy calculator answers; the simulator, shaped like an H100, counts with an H100's limits:
// 2048 threads and 32 blocks an SM, 228 KiB of shared memory an SM, 1 KiB of it kept per block.
// Answers are kept per (kernel, block, shared bytes, cluster): a plan asks on every call.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "common/cuda_compat.h"
#include "common/host/plan.h"
#if defined(__CUDACC__)
#include "common/backends/gpu/check.h"
#endif

RL_NAMESPACE_BEGIN

namespace occupancy_detail {
struct Answer {
  const void* kernel;
  unsigned block, cluster;
  std::size_t shared_bytes;
  unsigned count;
};
// The answer asked before for the same question, or `ask()` once.
template <class Ask>
unsigned remembered(const void* kernel, unsigned block, std::size_t shared_bytes, unsigned cluster,
                    Ask ask) {
  static std::vector<Answer> answers;
  for (const Answer& a : answers)
    if (a.kernel == kernel && a.block == block && a.shared_bytes == shared_bytes &&
        a.cluster == cluster)
      return a.count;
  const unsigned count = ask();
  answers.push_back({kernel, block, cluster, shared_bytes, count});
  return count;
}
}  // namespace occupancy_detail

// Blocks of `block` threads with `shared_bytes` of dynamic shared memory resident on the GPU.
template <class... Params>
unsigned resident_blocks(void (*kernel)(Params...), unsigned block, std::size_t shared_bytes,
                         const DeviceShape& s) {
  const auto* key = reinterpret_cast<const void*>(kernel);
  return occupancy_detail::remembered(key, block, shared_bytes, 0, [&] {
#if defined(__CUDACC__)
    int per_sm = 0;
    RL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, key, static_cast<int>(block), shared_bytes));
    return s.sm_count * static_cast<unsigned>(per_sm);
#else
    constexpr std::size_t shared_per_sm = 228 << 10, kept_per_block = 1 << 10;
    const unsigned by_threads = std::clamp(s.max_threads_per_sm / block, 1u, 32u);
    const auto by_shared = static_cast<unsigned>(shared_per_sm / (shared_bytes + kept_per_block));
    return s.sm_count * std::min(by_threads, by_shared);
#endif
  });
}

// Clusters of `cluster` such blocks resident on the GPU at once (a cluster is placed whole, in one
// GPC, so this can be fewer than resident_blocks / cluster).
template <class... Params>
unsigned resident_clusters(void (*kernel)(Params...), unsigned block, std::size_t shared_bytes,
                           unsigned cluster, const DeviceShape& s) {
  const auto* key = reinterpret_cast<const void*>(kernel);
  return occupancy_detail::remembered(key, block, shared_bytes, cluster, [&] {
#if defined(__CUDACC__)
    cudaLaunchAttribute dims{};
    dims.id = cudaLaunchAttributeClusterDimension;
    dims.val.clusterDim.x = cluster;
    dims.val.clusterDim.y = 1;
    dims.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(cluster);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = shared_bytes;
    config.attrs = &dims;
    config.numAttrs = 1;
    int clusters = 0;
    RL_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, key, &config));
    (void)s;
    return static_cast<unsigned>(clusters);
#else
    return resident_blocks(kernel, block, shared_bytes, s) / cluster;
#endif
  });
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
