// Exercise 16: one call that owns its storage and never waits (GPU only). Do what the
// TODO(student) below asks; grade it with `bash lessons/grade.sh 16`, and when stuck ask
// `build-student/bin/16_versus_cub --hint 1` (then 2, 3). The solution is ../versus_cub.cuh.
#pragma once
// Lesson 16: the libraries every rung is measured against, called the way their documentation
// shows: CUB's DeviceReduce::Sum (query the temporary storage, then reduce) and thrust::reduce.
// They are NVIDIA's compiled code, so they exist on the GPU only: the simulator's copy of this
// header is empty.
#include <cstddef>
#include <cstdint>

#include "common/cuda_compat.h"
#if defined(__CUDACC__)
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <cub/device/device_reduce.cuh>

#include "common/backends/gpu/check.h"
#endif

RL_NAMESPACE_BEGIN
#if defined(__CUDACC__)

// CUB's two-call protocol: called with no storage, DeviceReduce::Sum only says how much it needs.
inline std::size_t cub_sum_storage_bytes(std::uint64_t n) {
  std::size_t bytes = 0;
  RL_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                       static_cast<float*>(nullptr), static_cast<std::int64_t>(n)));
  return bytes;
}

// The second call: the reduction, enqueued on `stream` with `bytes` of temporary storage.
inline void cub_sum(const float* in, float* out, std::uint64_t n, void* storage, std::size_t bytes,
                    cudaStream_t stream) {
  RL_CUDA_CHECK(
      cub::DeviceReduce::Sum(storage, bytes, in, out, static_cast<std::int64_t>(n), stream));
}

// thrust::reduce returns the value to the host: it synchronises, and its temporary storage is
// allocated and freed inside every call. That is its convenience, and its cost.
inline float thrust_sum(const float* in, std::uint64_t n, cudaStream_t stream) {
  return thrust::reduce(thrust::cuda::par.on(stream), in, in + n, 0.0f);
}

// The exercise's variant: one call that brings its own temporary storage, as thrust_sum does, and
// still never waits for the GPU. cudaMalloc and cudaFree synchronise the GPU across its streams (CUDA
// Programming Guide, 4.3.1); the stream-ordered allocator (cudaMallocAsync, cudaFreeAsync)
// allocates and frees as work on the stream, in order with the reduction, so the call only
// enqueues, and the total stays on the device.
inline void cub_sum_stream_ordered(const float* in, float* out, std::uint64_t n,
                                   cudaStream_t stream) {
  // TODO(student): CUB's device-wide sum of in[0, n) into out[0] on `stream`, as cub_sum above,
  //   but in one call that finds its own temporary storage, as thrust_sum does, and releases it,
  //   leaking nothing; unlike thrust_sum, it must never wait for the GPU: it only enqueues its
  //   work, and the total stays in out[0] on the device. A CUDA error must not pass silently
  //   (common/backends/gpu/check.h). Graded (`bash lessons/grade.sh 16`) on a GPU only (the
  //   simulator has no CUB and skips this lesson), every plan (cub, thrust and this one,
  //   stream_ordered): the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1, 2^20 and
  //   2^24+3, random floats within float rounding and integer data to the bit, then three sizes at
  //   each of the other block sizes (which a library ignores). Then the idea: with the stream held
  //   for 200 ms by work queued before it, one call at n = 1000 must return in under 100 ms, and
  //   its total must be right once the stream has run.
  (void)in, (void)out, (void)n, (void)stream;
}

#endif
RL_NAMESPACE_END
