// Lesson 12's launch plan: CUB and Thrust, timed like every other rung (GPU only).
// main.cpp -> rl::lesson_main<12> -> lesson_plans<12, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator, where it has no plans.
#include "common/grid_size.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/12_versus_cub/versus_cub.cuh"

RL_NAMESPACE_BEGIN
namespace {
#if defined(__CUDACC__)

std::size_t cub_scratch_bytes(std::uint64_t n, unsigned, const DeviceShape&) { return cub_sum_storage_bytes(n); }

void cub_reduce(const float* in, float* out, std::uint64_t n, unsigned, void* scratch, const DeviceShape&,
                void* stream) {
  // The size query is host work on every call; ask once per n, as a program reusing its temporary
  // storage would, so the timing is CUB's reduction and not its bookkeeping.
  static std::uint64_t queried_n = ~std::uint64_t{0};
  static std::size_t bytes = 0;
  if (n != queried_n) bytes = cub_sum_storage_bytes(n), queried_n = n;
  cub_sum(in, out, n, scratch, bytes, static_cast<cudaStream_t>(stream));
}

std::size_t thrust_scratch_bytes(std::uint64_t, unsigned, const DeviceShape&) { return 0; }  // Thrust allocates its own

void thrust_reduce(const float* in, float* out, std::uint64_t n, unsigned, void*, const DeviceShape&, void* stream) {
  const float total = thrust_sum(in, n, static_cast<cudaStream_t>(stream));
  copy_to_device(out, &total, sizeof(float), stream);
}

// CUB's plan is its own; bound its per-thread run by spreading n over every resident thread.
std::uint64_t library_depth(std::uint64_t n, unsigned, const DeviceShape& s) {
  return summation_depth(n, n / (std::uint64_t{s.sm_count} * s.max_threads_per_sm) + 64);
}

#endif
}  // namespace
RL_NAMESPACE_END

namespace rl {

// Library code records nothing: lesson 12 has no trace.
template <>
Plans lesson_plans<12, this_backend>() {
#if defined(__CUDACC__)
  return {{.lesson = 12,
           .slug = "versus_cub",
           .title = "CUB DeviceReduce::Sum and thrust::reduce",
           .backend = this_backend,
           .scratch_bytes = cub_scratch_bytes,
           .reduce = cub_reduce,
           .depth = library_depth,
           .source = kernel_source},
          {.lesson = 12,
           .slug = "versus_cub",
           .title = "CUB DeviceReduce::Sum and thrust::reduce",
           .variant = "thrust",
           .backend = this_backend,
           .scratch_bytes = thrust_scratch_bytes,
           .reduce = thrust_reduce,
           .depth = library_depth,
           .source = kernel_source}};
#else
  return {};  // NVIDIA's compiled libraries have no simulator version
#endif
}

}  // namespace rl
