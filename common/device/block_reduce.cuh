#pragma once
// Lesson 09's block sum with the + taken out (lesson 18's idea, for lessons 18-21): any operator's
// combine, any accumulator (a float, a (value, index) pair, a (count, mean, M2) triple), through
// the same two stages of warp shuffles.
#include <cstring>

#include "common/cuda_compat.h"
#include "common/device/warp_sum.cuh"

RL_NAMESPACE_BEGIN

// A shuffle moves 32 bits; a struct goes word by word (memcpy, because reading a float through an
// unsigned* is undefined behaviour; compilers turn it into plain register moves).
template <class V>
__device__ __forceinline__ V shuffle_down(V v, unsigned offset) {
  static_assert(sizeof(V) % 4 == 0, "accumulators are made of 32-bit words");
  unsigned words[sizeof(V) / 4];
  std::memcpy(words, &v, sizeof(V));
#pragma unroll
  for (unsigned k = 0; k < sizeof(V) / 4; ++k)
    words[k] = __shfl_down_sync(full_warp, words[k], offset);
  std::memcpy(&v, words, sizeof(V));
  return v;
}

// Lane 0 ends with the warp's combination. Lanes past 31 - offset combine with themselves (a
// shuffle from beyond the warp returns the caller's own value); their results never reach lane 0.
template <class Op>
__device__ __forceinline__ typename Op::Acc warp_reduce(typename Op::Acc v) {
#pragma unroll
  for (unsigned offset = 16; offset > 0; offset /= 2) v = Op::combine(v, shuffle_down(v, offset));
  return v;
}

// Thread 0 gets the block's combination, always in the same tree, so the same bits every run.
// Like block_sum: every thread calls it, and two calls need a __syncthreads() between them.
template <class Op, unsigned Block>
__device__ __forceinline__ typename Op::Acc block_reduce(typename Op::Acc v) {
  static_assert(Block >= 32 && Block <= 1024 && Block % 32 == 0,
                "whole warps, at most 1024 threads");
  v = warp_reduce<Op>(v);
  if constexpr (Block > 32) {
    __shared__ typename Op::Acc warp_totals[Block / 32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_reduce<Op>(lane < Block / 32 ? warp_totals[lane] : Op::identity());
  }
  return v;
}

// A partial that another block wrote (lesson 12's finish, a split row's or a column tile's last
// block), read with __ldcg, a cache hint: through L2, past this SM's L1. It orders nothing: the
// acquire after the ticket is what makes the partials visible. A word at a time, because __ldcg
// takes built-in types only.
template <class V>
__device__ __forceinline__ V load_l2(const V* at) {
  unsigned words[sizeof(V) / 4];
#pragma unroll
  for (unsigned k = 0; k < sizeof(V) / 4; ++k)
    words[k] = __ldcg(reinterpret_cast<const unsigned*>(at) + k);
  V v;
  std::memcpy(&v, words, sizeof(V));
  return v;
}

RL_NAMESPACE_END
