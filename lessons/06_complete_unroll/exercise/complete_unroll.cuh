// Exercise 06: write the block's tree with every level decided at compile time (if constexpr).
// The solution is ../complete_unroll.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 06: the block size as a template parameter, so every level of the tree is unrolled at
// compile time and the untaken ones vanish (Harris's "reduction #6").
#include <cstdint>

#include "common/block_dispatch.h"
#include "common/cuda_compat.h"
#include "common/trace/recorder.h"
#include "common/tree_passes.h"
#include "lessons/04_first_add_during_load/add_while_loading.cuh"
#include "lessons/06_complete_unroll/tree_in_shared.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) complete_unroll(const float* in, float* out, std::uint64_t n) {
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * Block);  // Block is a constant: 2*Block folds
  partial[tid] = add_while_loading<Trace>(in, n, first, Block);          // lesson 04
  if (first + tid < n) Trace::store(0, shared_slot(tid), register_of(tid), partial[tid]);
  __syncthreads();
  // THE IDEA: Block is a compile-time constant, so each level of the tree is kept or dropped by the compiler.
  unsigned level = 1;
  // TODO(student): one written-out level per half = 512, 256, 128, 64, each inside
  //   `if constexpr (Block >= 2 * half)`: threads below half add partial[tid + half] and record
  //   Trace::combine(level, shared_slot(tid), shared_slot(tid + half), partial[tid]); barrier; ++level.
  //   Then warp 0 ends with lesson 05's warp_reduce_in_shared<Trace>(partial, tid, Block, level),
  //   and `level += Block >= 64 ? 6 : 5;` for the store below.
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
    Trace::store(level, global_at(out + blockIdx.x), shared_slot(0), partial[0]);
  }
}

struct CompleteUnroll {
  static constexpr int lesson = 6;
  static constexpr const char* slug = "complete_unroll";
  static constexpr const char* title = "Complete unroll (block size as a template)";
  static constexpr const char* variant = "";
  template <unsigned Block, class Trace>
  static constexpr TreeKernel kernel = complete_unroll<Block, Trace>;

  static std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_scratch_bytes(n, 2ull * block);
  }
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape&,
                     void* stream) {
    reduce_in_passes(slug, kernel_for_block<CompleteUnroll, Trace>(block), in, out, n, block, 2, scratch, stream);
  }
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape&) { return tree_depth(n, 2ull * block); }
};

RL_NAMESPACE_END
