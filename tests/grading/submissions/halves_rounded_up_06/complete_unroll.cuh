#pragma once
// Lesson 06: the block size as a template parameter, so every level of the tree is unrolled at
// compile time and the untaken ones vanish (Harris's "reduction #6").
#include <cstdint>

#include "common/device/add_while_loading.cuh"
#include "common/device/traced.h"
#include "common/device/warp_tail_in_shared.cuh"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    complete_unroll(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0,
                "a power of two from 32 to 1024");
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  // Block is a constant: 2*Block folds
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * Block);
  partial[tid] = add_while_loading<Trace>(in, n, first, Block);  // lesson 04
  __syncthreads();

  // THE IDEA: Block is known to the compiler, so each `if constexpr` below either becomes one level
  // of straight-line code or vanishes: a 256-thread kernel holds exactly the levels 128 and 64,
  // with no loop counter, no compare of the stride and no branch back.
  if constexpr (Block >= 1024) {
    if (tid < 512) partial[tid] += partial[tid + 512];
    __syncthreads();
  }
  if constexpr (Block >= 512) {
    if (tid < 256) partial[tid] += partial[tid + 256];
    __syncthreads();
  }
  if constexpr (Block >= 256) {
    if (tid < 128) partial[tid] += partial[tid + 128];
    __syncthreads();
  }
  if constexpr (Block >= 128) {
    if (tid < 64) partial[tid] += partial[tid + 64];
    __syncthreads();
  }
  if (tid < 32) warp_tail_in_shared<Trace>(partial, tid, Block);  // lesson 05's last six levels
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// The `non_power_of_two` variant: the same unrolled tree for a Block that is a whole number of
// warps but not a power of two (plan.cu instantiates three quarters of the block: 96, 192, 384,
// 768). Lesson 06's levels would lose the values past the largest power of two below Block.
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    complete_unroll_any_block(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  // whole warps: the warp tail's __syncwarp() names all 32 lanes
  static_assert(Block >= 32 && Block <= 1024 && Block % 32 == 0, "whole warps, at most 1024");
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * Block);
  partial[tid] = add_while_loading<Trace>(in, n, first, Block);  // lesson 04
  __syncthreads();

  // The mistake: each level halves the live slots rounded up (192, 96, 48), so no value is lost,
  // but 48 threads add at the second level: a warp with half its lanes idle.
  unsigned live = Block;
  while (live > 64) {
    const unsigned half = (live + 1) / 2;
    if (tid < live - half) partial[tid] += partial[tid + half];
    __syncthreads();
    live = half;
  }
  if (tid < 32) warp_tail_in_shared<Trace>(partial, tid, live);
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
