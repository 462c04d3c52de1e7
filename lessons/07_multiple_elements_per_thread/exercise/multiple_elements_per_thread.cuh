// Exercise 07: write the grid-stride loop in which each thread sums many inputs before the tree.
// The solution is ../multiple_elements_per_thread.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 07: a grid that fills the GPU once, each thread summing many elements before the tree
// (Harris's "reduction #7", algorithm cascading).
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "common/trace/recorder.h"
#include "lessons/06_complete_unroll/tree_in_shared.cuh"
#include "lessons/07_multiple_elements_per_thread/grid_stride_sum.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) multiple_elements_per_thread(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  // THE IDEA: the grid is sized from the SM count (common/grid_stride_plan.h), not from n. Each
  // thread walks the input in grid-sized strides, adding in a register: the costly tree and its
  // barriers run once per block however large n is, and loads of consecutive threads still
  // touch consecutive addresses. 64-bit indices: n may pass 2^32.
  // TODO(student): walk the input from i = blockIdx.x * 2 * Block + tid in steps of 2 * Block * gridDim.x
  //   (64-bit) while i < n, adding in[i] and, when inside n, in[i + Block] into `sum`. Record each add:
  //   Trace::combine(0, register_of(tid), global_at(in + i), sum) (in + i + Block for the second).
  float sum = 0.0f;
  (void)in, (void)n;
  partial[tid] = sum;
  Trace::store(1, shared_slot(tid), register_of(tid), partial[tid]);
  __syncthreads();
  const unsigned level = tree_in_shared<Block, Trace>(partial, tid, 2);
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
    Trace::store(level, global_at(out + blockIdx.x), shared_slot(0), partial[0]);
  }
}

struct MultipleElementsPerThread : GridStridePlan<MultipleElementsPerThread> {
  static constexpr int lesson = 7;
  static constexpr const char* slug = "multiple_elements_per_thread";
  static constexpr const char* title = "Many elements per thread, grid sized to the GPU";
  template <unsigned Block, class Trace>
  static constexpr GridKernel kernel = multiple_elements_per_thread<Block, Trace>;
};

RL_NAMESPACE_END
