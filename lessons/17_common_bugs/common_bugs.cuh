#pragma once
// Lesson 17: ten classic mistakes and their fixes. Each kernel below is broken.cuh's kernel of the
// same name with its one mistake fixed; `17_common_bugs --grade` grades all ten (every graded
// case, race-free on the simulator in every thread order), and `--bug NAME --fixed` runs one of
// them.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN
namespace graded {

// missing_barrier_in_loop: every level of the tree reads what the level before wrote, in other
// threads' slots. THE FIX: a block barrier after each level, outside the `if`.
template <class Trace = NoTrace>
__global__ void missing_barrier_in_loop(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// barrier_only_above_warp: "a warp runs in lock-step" has not been true since Volta, so the levels
// below 64 need their barrier as much as the others. THE FIX: the barrier at every level.
template <class Trace = NoTrace>
__global__ void barrier_only_above_warp(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// barrier_inside_branch: a __syncthreads that only the threads below the stride reach. THE FIX: the
// barrier outside the `if`, where every thread of the block reaches it.
template <class Trace = NoTrace>
__global__ void barrier_inside_branch(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// stride_never_halves: a loop whose condition never changes. THE FIX: halve the stride each level.
template <class Trace = NoTrace>
__global__ void stride_never_halves(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// reads_past_shared_memory: the first level reads partial[tid + blockDim.x], one block's worth past
// the array. THE FIX: start at half the block, so tid + stride < blockDim.x.
template <class Trace = NoTrace>
__global__ void reads_past_shared_memory(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// never_writes_output: the store waited for a stride the loop never reaches (it stops before 0).
// THE FIX: store after the loop, once partial[0] holds the block's sum.
template <class Trace = NoTrace>
__global__ void never_writes_output(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// dropped_block: the kernel is right; the grid was count / per_block, rounded down, so the last,
// partial block was never launched. THE FIX: round up (a pass over 257 values needs 2 blocks of
// 256).
__host__ __device__ constexpr std::uint64_t dropped_block_grid(std::uint64_t count,
                                                               std::uint64_t per_block) {
  return (count + per_block - 1) / per_block;
}
template <class Trace = NoTrace>
__global__ void dropped_block(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// volatile_tail: Harris's 2007 warp tail. `volatile` keeps every value in shared memory but orders
// nothing between lanes, and nothing makes lane 0 wait for lane 16's add before reading v[16]; it
// also reads 32 slots past a 32-thread block. THE FIX: lesson 05's tail, each level read into a
// register, __syncwarp, write, __syncwarp, and never a slot past the block.
template <class Trace = NoTrace>
__global__ void volatile_tail(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    Float<Trace> sum = partial[tid];
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      if (tid + stride < blockDim.x) sum += partial[tid + stride];
      __syncwarp();
      partial[tid] = sum;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// missing_syncwarp: lesson 05's tail with one __syncwarp of the two: a lane may overwrite a slot
// that another lane has not read yet. THE FIX: __syncwarp between each level's reads and its writes
// too.
template <class Trace = NoTrace>
__global__ void missing_syncwarp(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    Float<Trace> sum = partial[tid];
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      if (tid + stride < blockDim.x) sum += partial[tid + stride];
      __syncwarp();
      partial[tid] = sum;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// missing_fence: lesson 12's last-block finish without its two fences. atomicInc is a relaxed
// atomic: it orders nothing else, so the last block may read a partial another block wrote before
// its ticket and still not see it (CUDA's memory model; the simulator's late visibility shows
// exactly that). THE FIX: a __threadfence() between the partial's store and the ticket (the
// release), and one between the ticket and the reads of the partials (the acquire): fence, atomic,
// atomic, fence synchronise the two blocks, and one ticket covers every earlier block through the
// release sequence of the counter's increments.
// How many blocks have taken a ticket in this launch; atomicInc wraps it back to zero.
__device__ unsigned int missing_fence_ticket = 0;

template <class Trace = NoTrace>
__global__ void missing_fence(In<Trace> in, Out<Trace> out, std::uint64_t n, Out<Trace> partials) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  Float<Trace> sum = 0.0f;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    sum += in[i];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  __shared__ bool is_last;
  if (tid == 0) {
    partials[blockIdx.x] = partial[0];
    // release: the partial is visible device-wide before the ticket says it is there
    __threadfence();
    is_last = atomicInc(&missing_fence_ticket, gridDim.x - 1) == gridDim.x - 1;
    if (is_last) __threadfence();  // acquire: the reads of the partials below come after it
  }
  __syncthreads();
  if (!is_last) return;
  if (tid == 0) {
    Float<Trace> total = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partials[b];
    out[0] = total;
  }
}

}  // namespace graded
RL_NAMESPACE_END
