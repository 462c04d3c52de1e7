// The constructs the lessons use, together in one kernel: templates over the block
// size, __launch_bounds__, __device__ __forceinline__ helpers, float4 loads through
// __ldg, static __shared__ arrays, warp shuffles, atomics and the threadfence
// "last block finishes" pattern.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

namespace {

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ unsigned blocks_done = 0;

template <unsigned BlockSize>
__global__ void __launch_bounds__(BlockSize)
    vector_shuffle_reduce(const float* in, float* partials, float* result, unsigned long long n) {
  __shared__ float warp_sums[32];
  __shared__ bool is_last;
  const unsigned tid = threadIdx.x;
  const unsigned lane = tid % warpSize, warp = tid / warpSize;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float sum = 0.0f;
  for (unsigned long long i = (unsigned long long)blockIdx.x * BlockSize + tid; i < n / 4;
       i += (unsigned long long)gridDim.x * BlockSize) {
    const float4 q = __ldg(&in4[i]);
    sum += (q.x + q.y) + (q.z + q.w);
  }
  sum = warp_reduce_sum(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < BlockSize / warpSize ? warp_sums[lane] : 0.0f;
    sum = warp_reduce_sum(sum);
    if (lane == 0) {
      partials[blockIdx.x] = sum;
      __threadfence();
      is_last = atomicInc(&blocks_done, gridDim.x) == gridDim.x - 1;
    }
  }
  __syncthreads();
  if (is_last && warp == 0) {  // the last block adds up all partials
    float total = 0.0f;
    for (unsigned b = lane; b < gridDim.x; b += warpSize) total += partials[b];
    total = warp_reduce_sum(total);
    if (lane == 0) {
      *result = total;
      blocks_done = 0;
    }
  }
}

}  // namespace

TEST_CASE("a lesson-style kernel using float4, __ldg, shuffles and the last-block pattern",
          "[lesson]") {
  constexpr unsigned long long n = 1 << 16;
  constexpr unsigned grid = 24;
  std::mt19937 rng(8);
  std::vector<float> in(n);
  double expected = 0;
  for (auto& x : in) {
    x = static_cast<float>(rng() % 16);  // small integers: the float total is exact
    expected += x;
  }
  for (const auto& opts : simtest::every_schedule(2)) {
    simtest::ScopedOptions scoped(opts);
    std::vector<float> partials(grid, 0.0f);
    float result = -1.0f;
    rl::sim::launch("vector_shuffle_reduce<256>", vector_shuffle_reduce<256>, dim3(grid), dim3(256),
                    0, in.data(), partials.data(), &result, n);
    CHECK(static_cast<double>(result) == expected);
    CHECK(blocks_done == 0u);
  }
}
