#pragma once
// Lesson 02: the same tree with the work given to contiguous threads (Harris's "reduction #2").
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "common/tree_passes.h"

namespace rl {
inline namespace RL_BACKEND_NS {

template <class Trace = NoTrace>
__global__ void interleaved_strided(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  if (i < n) Trace::load(0, shared_slot(tid), global_at(in + i), partial[tid]);
  __syncthreads();

  unsigned level = 1;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2, ++level) {
    // THE IDEA: threads 0, 1, 2, ... do the work, each on the pair at 2*stride*tid. Whole warps are
    // now either busy or idle, so no warp diverges (until fewer than 32 threads work).
    const unsigned index = 2 * stride * tid;
    // The new flaw: lane tid touches word 2*stride*tid, so a warp's 32 addresses fall into only
    // 32/(2*stride) of the 32 banks: a 2-way bank conflict at stride 1, 4-way at 2, ... 16-way at 16.
    if (index < blockDim.x) {
      partial[index] += partial[index + stride];
      Trace::combine(level, shared_slot(index), shared_slot(index + stride), partial[index]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
    Trace::store(level, global_at(out + blockIdx.x), shared_slot(0), partial[0]);
  }
}

struct InterleavedStrided : TreePlan<InterleavedStrided> {
  static constexpr int lesson = 2;
  static constexpr const char* slug = "interleaved_strided";
  static constexpr const char* title = "Interleaved addressing, strided index";
  template <class Trace>
  static constexpr TreeKernel kernel = interleaved_strided<Trace>;
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
