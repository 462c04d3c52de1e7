#pragma once
// Lesson 17's catalogue: ten kernels, each lesson 03's tree (or lesson 05's warp tail, or lesson
// 12's last-block finish) with one classic mistake, exactly as exercise/common_bugs.cuh hands them to the student (a test compares
// their code: tests/grading/bugs_match_exercise.sh). `17_common_bugs --bug NAME` runs them; the
// README says what each does wrong, and what a GPU, the simulator and the grader make of it.
// Nothing here is graded and nothing replaces this file: a student build still shows the bugs.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN
namespace broken {

// missing_barrier_in_loop
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

// barrier_only_above_warp
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

// barrier_inside_branch
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

// stride_never_halves
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

// reads_past_shared_memory
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

// never_writes_output
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

// dropped_block: the kernel, and how many blocks a pass of it launches over `count` values,
// `per_block` to a block (plan.cu launches at least one).
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

// volatile_tail
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

// missing_syncwarp
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

// missing_fence
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

}  // namespace broken
RL_NAMESPACE_END
