#pragma once
// Lesson 06: the block size as a template parameter, so every level of the tree is unrolled at
// compile time and the untaken ones vanish (Harris's "reduction #6").
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/tree_passes.h"
#include "lessons/05_unroll_last_warp/warp_reduce_in_shared.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

template <unsigned Block>
__global__ void __launch_bounds__(Block) complete_unroll(const float* in, float* out, std::uint64_t n) {
  static_assert(Block >= 32 && Block <= 1024 && (Block & (Block - 1)) == 0, "a power of two from 32 to 1024");
  float* partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * Block) + tid;
  float sum = i < n ? in[i] : 0.0f;
  if (i + Block < n) sum += in[i + Block];
  partial[tid] = sum;
  __syncthreads();

  // THE IDEA: Block is a constant, so each `if constexpr` below is decided by the compiler: a
  // 256-thread kernel contains exactly the levels 128 and 64 and no loop counter, no compare.
  if constexpr (Block >= 1024) { if (tid < 512) partial[tid] += partial[tid + 512]; __syncthreads(); }
  if constexpr (Block >= 512) { if (tid < 256) partial[tid] += partial[tid + 256]; __syncthreads(); }
  if constexpr (Block >= 256) { if (tid < 128) partial[tid] += partial[tid + 128]; __syncthreads(); }
  if constexpr (Block >= 128) { if (tid < 64) partial[tid] += partial[tid + 64]; __syncthreads(); }
  if (tid < 32) warp_reduce_in_shared(partial, tid, Block);  // lesson 05's warp levels, Block constant
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// Run-time block size to compile-time instantiation: one kernel per power of two.
inline TreeKernel complete_unroll_for(unsigned block) {
  switch (block) {
    case 32: return complete_unroll<32>;
    case 64: return complete_unroll<64>;
    case 128: return complete_unroll<128>;
    case 256: return complete_unroll<256>;
    case 512: return complete_unroll<512>;
    default: return complete_unroll<1024>;  // the CLI admits only powers of two in [32, 1024]
  }
}

struct CompleteUnroll {
  static constexpr int lesson = 6;
  static constexpr const char* slug = "complete_unroll";
  static constexpr const char* title = "Complete unroll (block size as a template)";
  static constexpr const char* variant = "";
  static std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_scratch_bytes(n, 2ull * block);
  }
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape&,
                     void* stream) {
    reduce_in_passes(slug, complete_unroll_for(block), in, out, n, block, 2, scratch, stream);
  }
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape&) { return tree_depth(n, 2ull * block); }
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
