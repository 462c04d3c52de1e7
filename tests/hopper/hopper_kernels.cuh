// Kernels that use the Hopper features correctly, compiled by g++ for the simulator's tests
// (tests/sim) and by nvcc for the same checks on a GPU (tests/hopper): clusters and distributed
// shared memory, programmatic dependent launch, bulk copies with a cuda::barrier, and the
// cooperative-group and warp reductions. Both sides compare the results with the same references.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>

#include "common/cuda_compat.h"

#if defined(__CUDACC__)
// A cuda::barrier in static shared memory, as CUDA's own examples declare it: its constructor is
// not run (init() does that), which nvcc would warn of.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

namespace hopper_test {
namespace cg = cooperative_groups;
using Barrier = cuda::barrier<cuda::thread_scope_block>;

// Shared memory read through what the race detector sees on the simulator; a pointer on the GPU.
#if defined(__CUDACC__)
using CheckedShared = float*;
#else
using CheckedShared = rl::sim::SharedView<float>;
#endif

// Internal linkage: each test file that includes them has its own copy (and uses some of them).
namespace {

// Each block sums its slice in shared memory; rank 0 of each cluster then adds the other blocks'
// sums through distributed shared memory and writes the cluster's total. The last cluster.sync()
// keeps every block alive until rank 0 has read it.
[[maybe_unused]] __global__ void cluster_sum(const std::int64_t* in, std::int64_t* out,
                                             unsigned long long n) {
  std::int64_t* s = rl::dynamic_shared<std::int64_t>();
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned tid = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  cluster.sync();
  if (cluster.block_rank() == 0 && tid == 0) {
    std::int64_t total = 0;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) total += *cluster.map_shared_rank(s, r);
    out[blockIdx.x / cluster.num_blocks()] = total;
  }
  cluster.sync();
}

// The same with the cluster barrier in two halves: a block arrives once its sum is in shared memory
// and waits only before it reads the others' (here there is nothing to do in between).
[[maybe_unused]] __global__ void cluster_sum_split(const std::int64_t* in, std::int64_t* out,
                                                   unsigned long long n) {
  std::int64_t* s = rl::dynamic_shared<std::int64_t>();
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned tid = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  cg::cluster_group::arrival_token summed = cluster.barrier_arrive();
  cluster.barrier_wait(std::move(summed));
  if (cluster.block_rank() == 0 && tid == 0) {
    std::int64_t total = 0;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) total += *cluster.map_shared_rank(s, r);
    out[blockIdx.x / cluster.num_blocks()] = total;
  }
  cluster.sync();
}

// Every block fills a static __shared__ array with its own values, then reads its own and its
// neighbour's (rank ^ 1) through distributed shared memory.
[[maybe_unused]] __global__ void static_shared_per_block(int* own, int* neighbour) {
  __shared__ int mine[64];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned tid = threadIdx.x;
  mine[tid] = static_cast<int>(blockIdx.x * 1000 + tid);
  cluster.sync();
  const int* other = cluster.map_shared_rank(mine, static_cast<int>(cluster.block_rank() ^ 1u));
  own[blockIdx.x * blockDim.x + tid] = mine[tid];
  neighbour[blockIdx.x * blockDim.x + tid] = other[tid];
  cluster.sync();
}

// What this_cluster() says, per thread: rank, blocks, thread rank, threads, dim_blocks().x,
// block_index().x.
[[maybe_unused]] __global__ void cluster_queries(unsigned* out) {
  cg::cluster_group c = cg::this_cluster();
  unsigned* o = out + 6 * (blockIdx.x * blockDim.x + threadIdx.x);
  o[0] = c.block_rank();
  o[1] = c.num_blocks();
  o[2] = c.thread_rank();
  o[3] = c.num_threads();
  o[4] = c.dim_blocks().x;
  o[5] = c.block_index().x;
  c.sync();
}

// A primary grid: doubled[i] = 2 in[i]. It lets its dependent start at once.
[[maybe_unused]] __global__ void doubles(const float* in, float* doubled, unsigned n) {
  cudaTriggerProgrammaticLaunchCompletion();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) doubled[i] = 2.0f * in[i];
}

// Its dependent: each block sums its slice of the primary's output into totals[block]. Zeroing
// shared memory does not need the primary; reading `doubled` does. SyncFirst false is the bug.
template <bool SyncFirst>
[[maybe_unused]] __global__ void sums_after(const float* doubled, float* totals, unsigned n) {
  float* s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = 0.0f;
  if constexpr (!SyncFirst) s[tid] = i < n ? doubled[i] : 0.0f;  // too early
  cudaGridDependencySynchronize();
  if constexpr (SyncFirst) s[tid] = i < n ? doubled[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) totals[blockIdx.x] = s[0];
}

// A dependent that needs nothing of the primary and never waits for it: legal.
[[maybe_unused]] __global__ void independent(unsigned* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x;
}

enum How { arrive_and_wait, arrive_then_wait, collective, into_static };

// Block b copies `count` floats of in (from b * count) into shared memory with one bulk copy
// (count * 4 a multiple of 16), waits for it, and writes them back out.
template <How H>
[[maybe_unused]] __global__ void bulk_load(const float* in, float* out, unsigned count) {
  __shared__ Barrier bar;
  __shared__ __align__(16) float fixed[1024];
  float* s = H == into_static ? fixed : rl::dynamic_shared<float>();
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const float* src = in + std::size_t{blockIdx.x} * count;
  const cuda::aligned_size_t<16> bytes(count * sizeof(float));
  if constexpr (H == collective) {
    cuda::memcpy_async(cg::this_thread_block(), s, src, bytes, bar);
  } else {
    if (threadIdx.x == 0) cuda::memcpy_async(s, src, bytes, bar);
  }
  if constexpr (H == arrive_then_wait) {
    Barrier::arrival_token token = bar.arrive();
    bar.wait(std::move(token));
  } else {
    bar.arrive_and_wait();
  }
  CheckedShared landed = s;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
    out[std::size_t{blockIdx.x} * count + i] = landed[i];
}

// out[3 t + k]: the sum, minimum and maximum over thread t's tile of Size threads.
template <unsigned Size, class T>
[[maybe_unused]] __global__ void tile_reduce(const T* in, T* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const unsigned t = block.thread_rank();
  const T v = in[t];
  out[3 * t] = cg::reduce(tile, v, cg::plus<T>());
  out[3 * t + 1] = cg::reduce(tile, v, cg::less<T>());
  out[3 * t + 2] = cg::reduce(tile, v, cg::greater<T>());
  // the tile's queries, checked on the host through these
  if (tile.thread_rank() != t % Size || tile.meta_group_rank() != t / Size ||
      tile.num_threads() != Size)
    out[3 * t] = T(-999);
}

// out[3 t + k]: __reduce_add/min/max_sync over the lanes of `mask` (lanes outside it leave).
template <class T>
[[maybe_unused]] __global__ void warp_reduce(const T* in, T* out, unsigned mask) {
  const unsigned t = threadIdx.x;
  if (!(mask >> (t % 32) & 1u)) return;
  out[3 * t] = __reduce_add_sync(mask, in[t]);
  out[3 * t + 1] = __reduce_min_sync(mask, in[t]);
  out[3 * t + 2] = __reduce_max_sync(mask, in[t]);
}

}  // namespace
}  // namespace hopper_test
