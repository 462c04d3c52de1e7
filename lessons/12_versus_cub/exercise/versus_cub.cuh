// Exercise 12: call the libraries: CUB's size query and reduction, and thrust::reduce (GPU only).
// The solution is ../versus_cub.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 12: the libraries every rung is measured against, called the way their documentation
// shows: CUB's DeviceReduce::Sum (query the temporary storage, then reduce) and thrust::reduce.
// They are NVIDIA's compiled code, so they run on the GPU only.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/host/plan.h"
#include "common/host/reference.h"
#include "common/launch.h"
#include "common/trace/recorder.h"
#if defined(__CUDACC__)
#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#endif

RL_NAMESPACE_BEGIN

struct CubDeviceReduce {
  static constexpr int lesson = 12;
  static constexpr const char* slug = "versus_cub";
  static constexpr const char* title = "CUB DeviceReduce::Sum and thrust::reduce";
  static constexpr const char* variant = "";
  static constexpr bool gpu_only = true;

  // CUB's two-call protocol: with no storage it only says how much it needs.
  static std::size_t scratch_bytes(std::uint64_t n, unsigned, const DeviceShape&) {
    std::size_t bytes = 0;
#if defined(__CUDACC__)
    // TODO(student): ask cub::DeviceReduce::Sum how many bytes of temporary storage n floats need:
    //   called with no storage (nullptr), it only writes that size into `bytes`. Wrap it in RL_CUDA_CHECK.
    (void)n;
#else
    (void)n;
#endif
    return bytes;
  }
  template <class Trace>  // library code records nothing: lesson 12 has no trace
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& s,
                     void* stream) {
#if defined(__CUDACC__)
    // The size query is host work on every call; ask once per n, as a program reusing its
    // temporary storage would, so the timing is CUB's reduction and not its bookkeeping.
    static std::uint64_t queried_n = ~std::uint64_t{0};
    static std::size_t bytes = 0;
    if (n != queried_n) bytes = scratch_bytes(n, block, s), queried_n = n;
    // TODO(student): the reduction itself: cub::DeviceReduce::Sum with the storage `scratch` of `bytes`
    //   bytes, from `in` (n items) into `out`, on `stream` (a cudaStream_t). Wrap it in RL_CUDA_CHECK.
    (void)in, (void)out, (void)scratch, (void)stream, (void)bytes;
#else
    (void)in, (void)out, (void)n, (void)block, (void)scratch, (void)s, (void)stream;
#endif
  }
  // CUB's plan is its own; bound its per-thread run by spreading n over every resident thread.
  static std::uint64_t depth(std::uint64_t n, unsigned, const DeviceShape& s) {
    return summation_depth(n, n / (std::uint64_t{s.sm_count} * s.max_threads_per_sm) + 64);
  }
};

struct ThrustReduce : CubDeviceReduce {
  static constexpr const char* variant = "thrust";
  static std::size_t scratch_bytes(std::uint64_t, unsigned, const DeviceShape&) { return 0; }  // Thrust allocates its own
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned, void*, const DeviceShape&, void* stream) {
#if defined(__CUDACC__)
    // thrust::reduce returns the value to the host: it synchronises, and its temporary storage is
    // allocated and freed inside every call. That is its convenience, and its cost.
    // TODO(student): total = thrust::reduce over [in, in + n) from 0.0f, run on `stream` through the
    //   execution policy thrust::cuda::par.on(...).
    const float total = 0.0f;
    (void)in, (void)n;
    copy_to_device(out, &total, sizeof(float), stream);
#else
    (void)in, (void)out, (void)n, (void)stream;
#endif
  }
};

RL_NAMESPACE_END
