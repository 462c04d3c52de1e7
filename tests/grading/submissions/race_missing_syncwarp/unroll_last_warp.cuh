#pragma once
// Lesson 05: unroll the last six levels, which a single warp does (Harris's "reduction #5"), the
// way that is correct on Volta and later: with __syncwarp between the reads and the writes.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "common/tree_passes.h"
#include "lessons/04_first_add_during_load/add_while_loading.cuh"
#include "lessons/05_unroll_last_warp/warp_reduce_in_shared.cuh"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void unroll_last_warp(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * blockDim.x);
  partial[tid] = add_while_loading<Trace>(in, n, first, blockDim.x);  // lesson 04
  if (first + tid < n) Trace::store(0, shared_slot(tid), register_of(tid), partial[tid]);
  __syncthreads();

  // THE IDEA: the block-wide loop stops at 64 values; below that only warp 0 works, and a warp
  // needs no block barrier (and no loop bookkeeping): six levels unrolled with warp-level syncs.
  unsigned level = 1;
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2, ++level) {
    if (tid < stride) {
      partial[tid] += partial[tid + stride];
      Trace::combine(level, shared_slot(tid), shared_slot(tid + stride), partial[tid]);
    }
    __syncthreads();
  }
  if (tid < 32) {  // the warp tail written inline, MISTAKE: no __syncwarp between a level's reads and writes
    float sum = partial[tid];
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      if (tid + stride < blockDim.x) sum += partial[tid + stride];
      partial[tid] = sum;  // a lane may overwrite a slot another lane has not read yet
      __syncwarp();
      if (tid < stride && stride < blockDim.x) Trace::combine(level, shared_slot(tid), shared_slot(tid + stride), sum);
    }
  }
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
    Trace::store(level + (blockDim.x >= 64 ? 6 : 5), global_at(out + blockIdx.x), shared_slot(0), partial[0]);
  }
}

struct UnrollLastWarp : TreePlan<UnrollLastWarp, 2> {
  static constexpr int lesson = 5;
  static constexpr const char* slug = "unroll_last_warp";
  static constexpr const char* title = "Unroll the last warp (__syncwarp-safe)";
  template <class Trace>
  static constexpr TreeKernel kernel = unroll_last_warp<Trace>;
};

RL_NAMESPACE_END
