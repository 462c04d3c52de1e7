// Exercise 12: one launch, the last block finishes. Do what the TODO(student) below asks; grade it
// with `bash lessons/grade.sh 12`, and when stuck ask `build-student/bin/12_single_pass --hint 1`
// (then 2, 3). The solution is ../single_pass.cuh. Name a value in a register `Float<Trace>` and
// shared memory `Shared<Trace>`, as the code around does (common/device/traced.h): the same code
// then also records --trace.
#pragma once
// Lesson 12: one launch for any N, with a deterministic finish: the last block to arrive adds the
// partials of all blocks, in a fixed order, so the result is the same bits every run.
#include <cstdint>

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

// TODO(student) (with the finish in single_pass below): a counter in global memory for single_pass
//   to use, zero when the program loads. Every graded case is one more launch in the same process,
//   and nothing resets the counter between launches.
__device__ unsigned int blocks_finished = 0;

template <unsigned Block, unsigned LoadsInFlight = 4, QuadOrder Order = QuadOrder::interleaved,
          class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    single_pass(In<Trace> in, Out<Trace> out, std::uint64_t n, Out<Trace> partials) {
  const Float<Trace> sum =
      block_sum<Block, Trace>(thread_sum_vectorized<Block, LoadsInFlight, Order, Trace>(in, n));

  // TODO(student): the lesson's second idea: no second launch. Thread 0 of each block holds the
  //   block's sum in `sum`, and `partials` has one float per block. The block that finishes last,
  //   and only that one, adds all gridDim.x blocks' sums and writes the total to out[0]. Blocks are
  //   not all resident at once, so none may wait for another; the last one must know that every
  //   other block's partial is written and visible to it, and it must add them in an order that
  //   depends only on the grid, never on which block came last: the same bits every run. A block
  //   that stops early stops as a whole (no thread may skip a barrier that others reach). Graded
  //   (`bash lessons/grade.sh 12`), both variants (atomic_finish, below, is already written): the
  //   total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU)
  //   with 256-thread blocks, random floats within float rounding and integer data to the bit; then
  //   blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1, 1000 and 67 * block - 3. On the
  //   simulator the cases up to 2^16+1 run again with each block's threads in reverse and in
  //   shuffled order: a result that needs lane order fails. Every case is a new launch in the same
  //   process, and the simulator runs blocks on several host threads at once; a missing memory
  //   fence goes unseen there (its memory is the host's, coherent), but a GPU may then read a stale
  //   partial. Visibility takes ordering on both sides: each writer's partial before its signal,
  //   and the last block's reads after the signal it received.
  (void)sum, (void)partials, (void)out;
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
