#pragma once
// Exercise 17: ten kernels, each with one classic mistake, the ones README.md describes. Grade
// them with `bash lessons/grade.sh 17`; when stuck, ask `build-student/bin/17_common_bugs --hint 1`
// (then 2, 3). Name a value in a register `Float<Trace>` and shared memory `Shared<Trace>`, as the
// code does (common/device/traced.h): the simulator's race detector sees only those. TODO(student):
// fix every kernel below, each in its own section. Graded (`bash lessons/grade.sh 17`),
//   kernel by kernel in this file's order, stopping at the first that fails: the sum of n inputs
//   for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with
//   256-thread blocks, random floats within float rounding and integer and spike data to the bit;
//   then blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1, 1000 and 67 * block - 3. On
//   the simulator its race detector is on, and the cases up to 2^16+1 run again with each block's
//   threads in reverse and in shuffled order: a kernel must be race-free and give the same total in
//   every order. `build-student/bin/17_common_bugs --all --fixed` runs all ten of yours, one line
//   each.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN
namespace graded {

// TODO(student) section: missing_barrier_in_loop. Lesson 03's tree, one classic mistake in this
//   section; `17_common_bugs --bug missing_barrier_in_loop` shows what it does.
template <class Trace = NoTrace>
__global__ void missing_barrier_in_loop(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// TODO(student) section: barrier_only_above_warp. Lesson 03's tree, one classic mistake in this
//   section; `17_common_bugs --bug barrier_only_above_warp` shows what it does.
template <class Trace = NoTrace>
__global__ void barrier_only_above_warp(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    if (stride > 32) __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// TODO(student) section: barrier_inside_branch. Lesson 03's tree, one classic mistake in this
//   section; `17_common_bugs --bug barrier_inside_branch` shows what it does.
template <class Trace = NoTrace>
__global__ void barrier_inside_branch(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) {
      partial[tid] += partial[tid + stride];
      __syncthreads();
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// TODO(student) section: stride_never_halves. Lesson 03's tree, one classic mistake in this
//   section; `17_common_bugs --bug stride_never_halves` shows what it does.
template <class Trace = NoTrace>
__global__ void stride_never_halves(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0;) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// TODO(student) section: reads_past_shared_memory. Lesson 03's tree, one classic mistake in this
//   section; `17_common_bugs --bug reads_past_shared_memory` shows what it does.
template <class Trace = NoTrace>
__global__ void reads_past_shared_memory(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// TODO(student) section: never_writes_output. Lesson 03's tree, one classic mistake in this
//   section; `17_common_bugs --bug never_writes_output` shows what it does.
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
    if (tid == 0 && stride == 0) out[blockIdx.x] = partial[0];
  }
}

// TODO(student) section: dropped_block. Lesson 03's tree and the grid of its passes, one classic
//   mistake in this section; `17_common_bugs --bug dropped_block` shows what it does.
//   dropped_block_grid is how many blocks a pass over `count` values launches, `per_block` to a
//   block (the plan launches at least one).
__host__ __device__ constexpr std::uint64_t dropped_block_grid(std::uint64_t count,
                                                               std::uint64_t per_block) {
  return count / per_block;
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

// TODO(student) section: volatile_tail. Lesson 05's warp tail, one classic mistake in this
//   section; `17_common_bugs --bug volatile_tail` shows what it does.
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
    VolatileShared<Trace> v = partial;
    v[tid] = v[tid] + v[tid + 32];
    v[tid] = v[tid] + v[tid + 16];
    v[tid] = v[tid] + v[tid + 8];
    v[tid] = v[tid] + v[tid + 4];
    v[tid] = v[tid] + v[tid + 2];
    v[tid] = v[tid] + v[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// TODO(student) section: missing_syncwarp. Lesson 05's warp tail, one classic mistake in this
//   section; `17_common_bugs --bug missing_syncwarp` shows what it does.
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
      partial[tid] = sum;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// TODO(student) section: missing_fence. Lesson 12's last-block finish on lesson 03's tree, one
//   classic mistake in this section; `17_common_bugs --bug missing_fence` shows what it does.
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
    is_last = atomicInc(&missing_fence_ticket, gridDim.x - 1) == gridDim.x - 1;
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
