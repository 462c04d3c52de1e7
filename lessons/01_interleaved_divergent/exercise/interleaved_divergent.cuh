// Exercise 01: write the body of the tree loop: which threads add, and which two slots.
// The solution is ../interleaved_divergent.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 01: the naive shared-memory tree (Harris's "reduction #1").
// Each block sums blockDim.x consecutive inputs; common/tree_passes.h runs it again on the partials.
// Trace is the recording policy (common/trace/recorder.h): NoTrace compiles its calls to nothing.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "common/tree_passes.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void interleaved_divergent(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();  // one float per thread, sized by the launch
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;  // 64-bit: n may pass 2^32
  partial[tid] = i < n ? in[i] : 0.0f;  // threads past the end load the identity, so the tree needs no mask
  if (i < n) Trace::load(0, shared_slot(tid), global_at(in + i), partial[tid]);
  __syncthreads();                      // every load lands before any thread reads a neighbour's slot

  unsigned level = 1;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2, ++level) {
    // THE IDEA (and its flaw): thread tid works when it is a multiple of 2*stride. The working
    // threads are scattered across every warp, so each warp runs the branch with most lanes idle
    // (divergence), and % is a slow integer operation.
    // TODO(student): the threads whose tid is a multiple of 2 * stride add the slot `stride` above
    //   their own into their own slot, then record it: Trace::combine(level, shared_slot(tid),
    //   shared_slot(tid + stride), partial[tid]);
    __syncthreads();  // this level's sums are written before the next level reads them
  }
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
    Trace::store(level, global_at(out + blockIdx.x), shared_slot(0), partial[0]);
  }
}

struct InterleavedDivergent : TreePlan<InterleavedDivergent> {
  static constexpr int lesson = 1;
  static constexpr const char* slug = "interleaved_divergent";
  static constexpr const char* title = "Interleaved addressing, divergent branch";
  template <class Trace>
  static constexpr TreeKernel kernel = interleaved_divergent<Trace>;
};

RL_NAMESPACE_END
