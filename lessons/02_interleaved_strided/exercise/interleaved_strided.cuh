// Exercise 02: write the body of the tree loop so that threads 0, 1, 2, ... do the work.
// The solution is ../interleaved_strided.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 02: the same tree with the work given to contiguous threads (Harris's "reduction #2").
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "common/tree_passes.h"

RL_NAMESPACE_BEGIN

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
    // TODO(student): compute the slot `index` thread tid owns at this level; if it lies inside the
    //   block, add the slot `stride` above it into it and record the add:
    //   Trace::combine(level, shared_slot(index), shared_slot(index + stride), partial[index]);
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

RL_NAMESPACE_END
