#pragma once
// Lesson 07: a grid that fills the GPU once, each thread summing many elements before the tree
// (Harris's "reduction #7", algorithm cascading).
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "lessons/06_complete_unroll/tree_in_shared.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

template <unsigned Block>
__global__ void __launch_bounds__(Block) multiple_elements_per_thread(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  // THE IDEA: the grid is sized from the SM count (common/grid_stride_plan.h), not from n. Each
  // thread walks the input in grid-sized strides, adding in a register: the costly tree and its
  // barriers run once per block however large n is, and loads of consecutive threads still
  // touch consecutive addresses. 64-bit indices: n may pass 2^32.
  const std::uint64_t stride = std::uint64_t{2 * Block} * gridDim.x;
  float sum = 0.0f;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * Block) + tid; i < n; i += stride) {
    sum += in[i];
    if (i + Block < n) sum += in[i + Block];  // lesson 04's second load, one block further on
  }
  partial[tid] = sum;
  __syncthreads();
  tree_in_shared<Block>(partial, tid);
  if (tid == 0) out[blockIdx.x] = partial[0];
}

struct MultipleElementsPerThread : GridStridePlan<MultipleElementsPerThread> {
  static constexpr int lesson = 7;
  static constexpr const char* slug = "multiple_elements_per_thread";
  static constexpr const char* title = "Many elements per thread, grid sized to the GPU";
  template <unsigned Block>
  static constexpr GridKernel kernel = multiple_elements_per_thread<Block>;
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
