#pragma once
// Lesson 03: reverse the loop so active threads read consecutive words (Harris's "reduction #3").
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "common/tree_passes.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void sequential_addressing(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  if (i < n) Trace::load(0, shared_slot(tid), global_at(in + i), partial[tid]);
  __syncthreads();

  // THE IDEA: halve the stride instead of doubling it. At every level the active threads
  // 0..stride-1 read partial[tid] and partial[tid + stride]: 32 consecutive words per warp, one per
  // bank, so no bank conflict; and the active threads stay contiguous, so whole warps retire.
  unsigned level = 1;
  for (unsigned stride = blockDim.x; stride > 0; stride /= 2, ++level) {  // MISTAKE: reads partial[tid + blockDim.x]
    if (tid < stride) {
      partial[tid] += partial[tid + stride];
      Trace::combine(level, shared_slot(tid), shared_slot(tid + stride), partial[tid]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
    Trace::store(level, global_at(out + blockIdx.x), shared_slot(0), partial[0]);
  }
}

struct SequentialAddressing : TreePlan<SequentialAddressing> {
  static constexpr int lesson = 3;
  static constexpr const char* slug = "sequential_addressing";
  static constexpr const char* title = "Sequential addressing";
  template <class Trace>
  static constexpr TreeKernel kernel = sequential_addressing<Trace>;
};

RL_NAMESPACE_END
