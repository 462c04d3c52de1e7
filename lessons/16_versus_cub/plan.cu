// Lesson 16's launch plan: CUB and Thrust, timed like every other rung (GPU only).
// main.cpp -> rl::lesson_main<16> -> lesson_plans<16, backend>() at the end of this file, which
// CMake compiles twice: by nvcc for the GPU and by g++ for the simulator, where it has no plans.
#include "common/plan_entry.h"
#include "lessons/16_versus_cub/versus_cub.cuh"

RL_NAMESPACE_BEGIN
namespace {
#if defined(__CUDACC__)

std::size_t cub_scratch_bytes(std::uint64_t n, unsigned, const DeviceShape&) {
  return cub_sum_storage_bytes(n);
}

void cub_reduce(const ReduceCall& c) {
  // The size query is host work on every call; ask once per n, as a program reusing its temporary
  // storage would, so the timing is CUB's reduction and not its bookkeeping.
  static std::uint64_t queried_n = ~std::uint64_t{0};
  static std::size_t bytes = 0;
  if (c.n != queried_n) bytes = cub_sum_storage_bytes(c.n), queried_n = c.n;
  cub_sum(c.in, c.out, c.n, c.scratch, bytes, static_cast<cudaStream_t>(c.stream));
}

// Thrust allocates its own (and so does the exercise's variant)
std::size_t thrust_scratch_bytes(std::uint64_t, unsigned, const DeviceShape&) { return 0; }

void thrust_reduce(const ReduceCall& c) {
  const float total = thrust_sum(c.in, c.n, static_cast<cudaStream_t>(c.stream));
  copy_to_device(c.out, &total, sizeof(float), c.stream);
}

// The exercise's variant: its temporary storage is its own, in the stream's order.
void stream_ordered_reduce(const ReduceCall& c) {
  cub_sum_stream_ordered(c.in, c.out, c.n, static_cast<cudaStream_t>(c.stream));
}

// CUB's plan is its own; bound its per-thread run by spreading n over every resident thread.
std::uint64_t library_depth(std::uint64_t n, unsigned, const DeviceShape& s) {
  return summation_depth(n, n / (std::uint64_t{s.sm_count} * s.max_threads_per_sm) + 64);
}

#endif
}  // namespace
RL_NAMESPACE_END

// Library code records nothing: lesson 16 has no trace.
template <>
rl::Plans rl::lesson_plans<16, rl::this_backend>() {
#if defined(__CUDACC__)
  constexpr std::string_view slug = "versus_cub",
                             title = "CUB DeviceReduce::Sum and thrust::reduce";
  Plan cub = lesson_plan(16, slug, title, cub_reduce);
  cub.scratch_bytes = cub_scratch_bytes;
  cub.depth = library_depth;
  Plan thrust = lesson_plan(16, slug, title, thrust_reduce);
  thrust.variant = "thrust";
  thrust.scratch_bytes = thrust_scratch_bytes;
  thrust.depth = library_depth;
  Plan stream_ordered = lesson_plan(16, slug, title, stream_ordered_reduce);
  stream_ordered.variant = "stream_ordered";
  stream_ordered.scratch_bytes = thrust_scratch_bytes;  // it allocates its own too
  stream_ordered.depth = library_depth;
  stream_ordered.never_waits =
      true;  // the exercise's idea: its grade times a call on a held stream
  return {cub, thrust, stream_ordered};
#else
  return {};  // NVIDIA's compiled libraries have no simulator version
#endif
}
