// Exercise 16: calling the libraries (GPU only). Do what the TODO(student) below asks; grade it
// with `bash lessons/grade.sh 16`, and when stuck ask `build-student/bin/16_versus_cub --hint 1`
// (then 2, 3). The solution is ../versus_cub.cuh.
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
  // TODO(student): set `bytes` to the size of the temporary storage CUB's device-wide sum of n
  //   floats needs, as CUB itself reports it: its calls are made twice, and the first, given no
  //   storage, only answers this question. A CUDA error must not pass silently
  //   (common/backends/gpu/check.h). Graded with the reduction below: see there.
  (void)n;
  return bytes;
}

// The second call: the reduction, enqueued on `stream` with `bytes` of temporary storage.
inline void cub_sum(const float* in, float* out, std::uint64_t n, void* storage, std::size_t bytes,
                    cudaStream_t stream) {
  // TODO(student): the reduction itself: CUB's device-wide sum of in[0, n) into out[0], in the
  //   `bytes` bytes of temporary storage at `storage` that plan.cu allocated from your answer
  //   above, enqueued on `stream` (no wait: the timing is the GPU's). Errors as above. Graded
  //   (`bash lessons/grade.sh 16`) on a GPU only (the simulator has no CUB and skips this lesson),
  //   the CUB plan and then the `thrust` variant: the total for n = 0, 1, 31, 32, 33, 255, 256,
  //   257, 1000, 2^16+1, 2^20 and 2^24+3, random floats within float rounding and integer data to
  //   the bit, then three sizes at each of the other block sizes (which a library ignores).
  (void)in, (void)out, (void)n, (void)storage, (void)bytes, (void)stream;
}

// thrust::reduce returns the value to the host: it synchronises, and its temporary storage is
// allocated and freed inside every call. That is its convenience, and its cost.
inline float thrust_sum(const float* in, std::uint64_t n, cudaStream_t stream) {
  // TODO(student): the same sum through Thrust, in one call that returns it to the host, run on
  //   `stream`. Graded with the CUB plan above.
  (void)in, (void)n, (void)stream;
  return 0.0f;
}

#endif
RL_NAMESPACE_END
