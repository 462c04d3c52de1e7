#pragma once
// Lesson 14: what else Hopper (sm_90) offers lesson 12's single pass, each measured, one idea a
// kernel: clusters of blocks that add their sums through each other's shared memory, so the grid's
// finish adds fewer partials; the Tensor Memory Accelerator loading shared memory in bulk instead of
// the threads; and the block reduce as the libraries write it (cooperative groups, CUB,
// __reduce_add_sync for integers).
#include <cstdint>

#include <cooperative_groups.h>  // the simulator has its own copies of these two (common/sim/include)
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>

#include "common/device/block_sum.cuh"
#include "common/device/last_block_finish.cuh"
#include "common/device/traced.h"
#include "common/device/vectorized_sum.cuh"
#include "common/device/warp_sum.cuh"
#if defined(__CUDACC__)
#include <cub/block/block_reduce.cuh>  // NVIDIA's compiled library: the GPU only
#endif

RL_NAMESPACE_BEGIN
namespace cg = cooperative_groups;

// The tickets of this lesson's single passes, as lesson 12's (launches in one stream use it one at a
// time; each leaves it at zero).
__device__ unsigned int cluster_tickets = 0;

// Idea 1: a cluster of blocks (plan.cu launches 2 to 16 blocks a cluster, side by side in one GPC)
// adds its blocks' sums in the shared memory of its first block, so the grid's finish adds one
// partial per cluster. With lesson 13's dependent launch too where plan.cu asks for it
// (cluster4_pdl).
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    cluster_single_pass(In<Trace> in, Out<Trace> out, std::uint64_t n, Out<Trace> partials) {
  // Lesson 13's two calls: they matter only where plan.cu launches with programmatic_dependency.
  cudaGridDependencySynchronize();
  cudaTriggerProgrammaticLaunchCompletion();
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  const unsigned slot = blockIdx.x / size;  // the cluster's partial
  // The cluster's sums through global memory: its first block clears the cluster's partial before
  // the cluster's barrier, the others add theirs into it after, and the first reads it back.
  if (rank == 0 && threadIdx.x == 0) partials[slot] = 0.0f;
  cluster.sync();
  const Float<Trace> sum = block_sum<Block, Trace>(vectorized_sum<Block, 4, Trace>(in, n));
  if (rank != 0 && threadIdx.x == 0) atomicAdd(partials + slot, sum);
  cluster.sync();
  if (rank != 0) return;
  Float<Trace> cluster_sum = 0.0f;
  if (threadIdx.x == 0) cluster_sum = sum + __ldcg(partials + slot);
  publish_and_finish<Block, Trace>(&cluster_tickets, cluster_sum, slot, gridDim.x / size, partials,
                                   out, [](Float<Trace> v) { return block_sum<Block, Trace>(v); });
}

// Idea 2: the Tensor Memory Accelerator (TMA, a unit in each SM, not the copy engines that move
// memory between host and device) moves the input into shared memory in bulk, 8 KiB a request,
// three stages per block in turn; the threads only add what has landed.
inline constexpr unsigned bulk_stages = 3;
inline constexpr unsigned bulk_stage_quads = 512;  // float4s a stage: 8 KiB
inline constexpr unsigned bulk_shared_bytes = bulk_stages * bulk_stage_quads * sizeof(float4);

template <unsigned Block>
__global__ void __launch_bounds__(Block)
    bulk_copy_single_pass(In<NoTrace> in, Out<NoTrace> out, std::uint64_t n,
                          Out<NoTrace> partials) {
  float4* const stage = dynamic_shared<float4>();  // bulk_stages buffers of bulk_stage_quads
  // One barrier per stage: a phase ends when every thread has arrived and the stage's bytes have
  // landed (the copy counts them off).
#if defined(__CUDACC__)
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif
  __shared__ cuda::barrier<cuda::thread_scope_block> landed[bulk_stages];
  if (threadIdx.x == 0)
    for (unsigned s = 0; s < bulk_stages; ++s) init(&landed[s], Block);
  __syncthreads();

  const std::uint64_t to_boundary = (4 - address_of(in) / sizeof(float) % 4) % 4;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const float4* const body = as_float4(in + head);  // a bulk copy needs 16-byte alignment
  const std::uint64_t quads = (n - head) / 4;
  const std::uint64_t chunks = quads / bulk_stage_quads;  // whole stages: the rest, plain loads
  // This block's k-th stage holds chunk blockIdx.x + k * gridDim.x: neighbours read neighbours.
  const auto chunk = [&](std::uint64_t k) { return blockIdx.x + k * gridDim.x; };
  // THE IDEA: one thread asks for 8 KiB; cp.async.bulk on sm_90, completing on the barrier.
  const auto fetch = [&](std::uint64_t k) {
    cuda::memcpy_async(
        stage + k % bulk_stages * bulk_stage_quads, body + chunk(k) * bulk_stage_quads,
        cuda::aligned_size_t<16>(bulk_stage_quads * sizeof(float4)), landed[k % bulk_stages]);
  };
  if (threadIdx.x == 0)
    for (unsigned k = 0; k < bulk_stages && chunk(k) < chunks; ++k) fetch(k);
  float sum = 0.0f;
  for (std::uint64_t k = 0; chunk(k) < chunks; ++k) {
    const float4* const s = stage + k % bulk_stages * bulk_stage_quads;
    landed[k % bulk_stages].arrive_and_wait();  // this stage's 8 KiB are in shared memory
    for (unsigned q = threadIdx.x; q < bulk_stage_quads; q += Block)
      sum += (s[q].x + s[q].y) + (s[q].z + s[q].w);
    __syncthreads();  // every thread has read the stage: only now may it be refilled
    if (threadIdx.x == 0 && chunk(k + bulk_stages) < chunks) fetch(k + bulk_stages);
  }
  // The quads after the last whole stage, then the head and the tail, as lesson 12 reads them.
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  for (std::uint64_t q = chunks * bulk_stage_quads + thread; q < quads;
       q += std::uint64_t{gridDim.x} * Block) {
    const float4 v = __ldg(body + q);
    sum += (v.x + v.y) + (v.z + v.w);
  }
  const std::uint64_t tail = head + quads * 4;
  if (thread < head) sum += in[thread];
  if (thread < n - tail) sum += in[tail + thread];
  const auto reduce = [](float v) { return block_sum<Block, NoTrace>(v); };
  publish_and_finish<Block, NoTrace>(&cluster_tickets, reduce(sum), blockIdx.x, gridDim.x, partials,
                                     out, reduce);
}

// Idea 3: lesson 09's block sum as cooperative groups write it, cg::reduce at both levels.
template <unsigned Block>
__device__ __forceinline__ float cg_block_sum(float v) {
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  v = cg::reduce(warp, v, cg::plus<float>());  // every lane receives its warp's total
  if constexpr (Block > 32) {
    __shared__ float totals[Block / 32];
    if (threadIdx.x % 32 == 0) totals[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32)
      v = cg::reduce(warp, threadIdx.x < Block / 32 ? totals[threadIdx.x] : 0.0f,
                     cg::plus<float>());
  }
  return v;
}

template <unsigned Block>
__global__ void __launch_bounds__(Block)
    cg_single_pass(In<NoTrace> in, Out<NoTrace> out, std::uint64_t n, Out<NoTrace> partials) {
  const float sum = cg_block_sum<Block>(vectorized_sum<Block, 4, NoTrace>(in, n));
  publish_and_finish<Block, NoTrace>(&cluster_tickets, sum, blockIdx.x, gridDim.x, partials, out,
                                     [](float v) { return cg_block_sum<Block>(v); });
}

#if defined(__CUDACC__)
// Idea 3: the block reduce as CUB writes it, by raking in shared memory (BLOCK_REDUCE_RAKING) or
// by warp shuffles and one word a warp (BLOCK_REDUCE_WARP_REDUCTIONS, lesson 09's scheme). NVIDIA's
// compiled library: the GPU only.
template <unsigned Block, cub::BlockReduceAlgorithm Algorithm>
__global__ void __launch_bounds__(Block)
    cub_single_pass(const float* in, float* out, std::uint64_t n, float* partials) {
  using BlockReduce = cub::BlockReduce<float, Block, Algorithm>;
  __shared__ typename BlockReduce::TempStorage storage;
  const auto reduce = [&](float v) { return BlockReduce(storage).Sum(v); };
  publish_and_finish<Block, NoTrace>(&cluster_tickets,
                                     reduce(vectorized_sum<Block, 4, NoTrace>(in, n)), blockIdx.x,
                                     gridDim.x, partials, out, reduce);
}
#endif

// Idea 3 for integers: __reduce_add_sync adds a warp's 32-bit integers in one instruction (sm_80
// on); integer addition is associative, so even an atomic finish gives the same total every run.
// `out` must be zero first. The ladder's data is float: lesson 14's tests check this kernel.
template <unsigned Block>
__global__ void __launch_bounds__(Block) int_sum(const int* in, int* out, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * Block;
  int sum = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * Block + threadIdx.x; i < n; i += stride)
    sum += in[i];
  sum = __reduce_add_sync(full_warp, sum);  // every lane receives its warp's total
  if (threadIdx.x % 32 == 0) atomicAdd(out, sum);
}

RL_NAMESPACE_END
