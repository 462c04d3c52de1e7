#pragma once
// Lesson 04: add two inputs while loading (Harris's "reduction #4").
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/tree_passes.h"

namespace rl {
inline namespace RL_BACKEND_NS {

__global__ void first_add_during_load(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  // THE IDEA: each block covers 2 * blockDim.x inputs and each thread adds its two while loading.
  // In lesson 03 half the threads went idle at the very first level; now that level is done in
  // registers on the way in, and the grid needs half as many blocks.
  const std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * blockDim.x) + tid;
  float sum = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];  // the second load is one block further: coalesced too
  partial[tid] = sum;
  __syncthreads();

  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {  // lesson 03's conflict-free tree
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

struct FirstAddDuringLoad : TreePlan<FirstAddDuringLoad, first_add_during_load, 2> {
  static constexpr int lesson = 4;
  static constexpr const char* slug = "first_add_during_load";
  static constexpr const char* title = "First add during load";
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
