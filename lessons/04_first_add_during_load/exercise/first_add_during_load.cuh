// Exercise 04: add the thread's two inputs on the way in, before the tree.
// The solution is ../first_add_during_load.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 04: add two inputs while loading (Harris's "reduction #4").
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "common/tree_passes.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void first_add_during_load(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  // THE IDEA: each block covers 2 * blockDim.x inputs and each thread adds its two while loading.
  // In lesson 03 half the threads went idle at the very first level; now that level is done in
  // registers on the way in, and the grid needs half as many blocks.
  const std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * blockDim.x) + tid;
  // TODO(student): put in[i] and in[i + blockDim.x] into `sum`, added (an index past n counts 0).
  //   Record the first with Trace::load(0, register_of(tid), global_at(in + i), sum) and the
  //   second with Trace::combine(0, register_of(tid), global_at(in + i + blockDim.x), sum).
  float sum = 0.0f;
  (void)in;
  partial[tid] = sum;
  if (i < n) Trace::store(0, shared_slot(tid), register_of(tid), sum);
  __syncthreads();

  unsigned level = 1;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2, ++level) {  // lesson 03's tree
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

struct FirstAddDuringLoad : TreePlan<FirstAddDuringLoad, 2> {
  static constexpr int lesson = 4;
  static constexpr const char* slug = "first_add_during_load";
  static constexpr const char* title = "First add during load";
  template <class Trace>
  static constexpr TreeKernel kernel = first_add_during_load<Trace>;
};

RL_NAMESPACE_END
