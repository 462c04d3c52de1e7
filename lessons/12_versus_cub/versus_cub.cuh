#pragma once
// Lesson 12: the libraries every rung is measured against, called the way their documentation
// shows: CUB's DeviceReduce::Sum (query the temporary storage, then reduce) and thrust::reduce.
// They are NVIDIA's compiled code, so they run on the GPU only.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/host/reducer.h"
#include "common/host/reference.h"
#include "common/launch.h"
#include "common/trace/recorder.h"
#if defined(__CUDACC__)
#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#endif

namespace rl {
inline namespace RL_BACKEND_NS {

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
    RL_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                         static_cast<float*>(nullptr), static_cast<std::int64_t>(n)));
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
    RL_CUDA_CHECK(cub::DeviceReduce::Sum(scratch, bytes, in, out, static_cast<std::int64_t>(n),
                                         static_cast<cudaStream_t>(stream)));
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
    const float total = thrust::reduce(thrust::cuda::par.on(static_cast<cudaStream_t>(stream)), in, in + n, 0.0f);
    copy_to_device(out, &total, sizeof(float), stream);
#else
    (void)in, (void)out, (void)n, (void)stream;
#endif
  }
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
