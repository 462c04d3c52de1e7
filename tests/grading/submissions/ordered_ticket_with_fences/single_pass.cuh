#pragma once
// Lesson 12: one launch for any N, with a deterministic finish: the last block to arrive adds the
// partials of all blocks, in a fixed order, so the result is the same bits every run.
#include <cstdint>
#include <cuda/atomic>
#include "common/device/block_sum.cuh"
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// How the quads (float4s) are dealt out: `interleaved`: thread t of the grid takes quads t, t + T,
// t + 2T, ... (T threads in the grid); `contiguous`: block b takes one contiguous segment of the
// quads, its threads striding through it by the block size.
enum class QuadOrder { interleaved, contiguous };

// One thread's share of in[0, n), read 16 bytes at a time. cudaMalloc aligns to 256 bytes, but a
// caller may pass `in + 1`: the floats before the first 16-byte boundary (the head) and after the
// last whole float4 (the tail) are read one by one.
template <unsigned Block, unsigned LoadsInFlight, QuadOrder Order, class Trace = NoTrace>
__device__ __forceinline__ Float<Trace> thread_sum_vectorized(In<Trace> in, std::uint64_t n) {
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  const std::uint64_t to_boundary = (4 - address_of(in) / sizeof(float) % 4) % 4;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const auto body = as_float4(in + head);  // now 16-byte aligned
  const std::uint64_t quads = (n - head) / 4;

  std::uint64_t q, end, stride;
  if constexpr (Order == QuadOrder::interleaved) {
    q = thread;
    end = quads;
    stride = std::uint64_t{gridDim.x} * Block;
  } else {
    const std::uint64_t segment = (quads + gridDim.x - 1) / gridDim.x;
    q = blockIdx.x * segment + threadIdx.x;
    end = (blockIdx.x + 1) * segment < quads ? (blockIdx.x + 1) * segment : quads;
    stride = Block;
  }
  Float<Trace> sum = 0.0f;
  // Lesson 11's loads: several independent 16-byte loads in flight per thread, because a load takes
  // hundreds of nanoseconds to return from DRAM (lesson 11 measures 352 ns on an H100) and only
  // bytes in flight hide that. Consecutive threads read consecutive quads.
  for (; q + (LoadsInFlight - 1) * stride < end; q += LoadsInFlight * stride) {
    Float4<Trace> v[LoadsInFlight];
    // all issued first
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) v[k] = __ldg(body + q + k * stride);
#pragma unroll
    for (unsigned k = 0; k < LoadsInFlight; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  for (; q < end; q += stride) {  // what is left when the share is not a multiple of the unroll
    const Float4<Trace> v = __ldg(body + q);
    sum += (v.x + v.y) + (v.z + v.w);
  }
  const std::uint64_t tail = head + quads * 4;
  if (thread < head) sum += in[thread];
  if (thread < n - tail) sum += in[tail + thread];
  return sum;
}

// How many blocks have finished this launch. Zero at load time; atomicInc wraps it back to zero
// when the last block arrives, so each launch finds it at zero without a memset (a second launch).
__device__ unsigned int blocks_finished = 0;

template <unsigned Block, unsigned LoadsInFlight = 4, QuadOrder Order = QuadOrder::interleaved,
          class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    single_pass(In<Trace> in, Out<Trace> out, std::uint64_t n, Out<Trace> partials) {
  const Float<Trace> sum =
      block_sum<Block, Trace>(thread_sum_vectorized<Block, LoadsInFlight, Order, Trace>(in, n));

  // THE IDEA: no second launch. Each block publishes its partial, then takes a ticket; the
  // block that takes the last ticket knows every other partial is already visible, and finishes.
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    // release: the partial is visible device-wide before the ticket says it is there
    __threadfence();
    is_last = atomicInc(&blocks_finished, gridDim.x - 1) == gridDim.x - 1;
    if (is_last) __threadfence();  // acquire: the reads of the partials below come after the ticket
  }
  // is_last is read by all, and what thread 0's acquire made visible is visible to them after the
  // barrier; it also ends block_sum's use of its shared words.
  __syncthreads();
  if (!is_last) return;  // the same for the whole block, so no thread skips a later barrier alone

  // Thread t adds partials t, t + Block, ... and block_sum combines them in a fixed tree: the order
  // depends only on the grid, never on which block came last. __ldcg reads L2, where the other
  // SMs' partials are, not this SM's L1.
  Float<Trace> total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += Block) total += __ldcg(partials + b);
  total = block_sum<Block, Trace>(total);
  if (threadIdx.x == 0) out[0] = total;
}

// The ordered_ticket variant's counter: its own, so the two kernels never share one.
__device__ unsigned int tickets_taken = 0;

// The variant `ordered_ticket`: single_pass's handover with no __threadfence().
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    single_pass_ordered_ticket(In<Trace> in, Out<Trace> out, std::uint64_t n, Out<Trace> partials) {
  const Float<Trace> sum = block_sum<Block, Trace>(
      thread_sum_vectorized<Block, 4, QuadOrder::interleaved, Trace>(in, n));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    // device scope: the other blocks are on other SMs; a block-scope order would not reach them
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(tickets_taken);
    // A fence orders around a relaxed atomic; this one orders by itself (atom.add.acq_rel.gpu in the
    // PTX). release: this block's partial is published before its ticket; acquire: in the last
    // block, the reads below come after the ticket that every other block's release led up to
    __threadfence();  // the mistake: single_pass's fences kept, around a relaxed ticket
    is_last = ticket.fetch_add(1u, cuda::memory_order_relaxed) == gridDim.x - 1;
    if (is_last) __threadfence();
    // fetch_add does not wrap as atomicInc does: the next launch, perhaps of another grid, must
    // find 0, and every other block of this one has taken its ticket already
    if (is_last) ticket.exchange(0u, cuda::memory_order_relaxed);
  }
  __syncthreads();  // passes thread 0's acquire on to the block's readers
  if (!is_last) return;
  Float<Trace> total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += Block) total += __ldcg(partials + b);
  total = block_sum<Block, Trace>(total);
  if (threadIdx.x == 0) out[0] = total;
}

// The contrast: finish with one atomicAdd per block. Blocks arrive in a different order each run,
// and float addition is not associative, so the last bits of the total vary from run to run.
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    single_pass_atomic(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  const Float<Trace> sum = block_sum<Block, Trace>(
      thread_sum_vectorized<Block, 4, QuadOrder::interleaved, Trace>(in, n));
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

RL_NAMESPACE_END
