#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

namespace {

// Tree reduction in shared memory down to 64 partials, then the last warp finishes.
// Unsafe: the classic "warp-synchronous" unroll through a volatile pointer with no
// __syncwarp; correct only if the 32 lanes run in lock-step, which CUDA does not promise.
template <bool Safe>
__global__ void last_warp_reduce(const float* in, float* out) {
  float* s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    if constexpr (!Safe) {
      volatile float* v = s;
      v[tid] += v[tid + 32];
      v[tid] += v[tid + 16];
      v[tid] += v[tid + 8];
      v[tid] += v[tid + 4];
      v[tid] += v[tid + 2];
      v[tid] += v[tid + 1];
    } else {
      for (unsigned offset = 32; offset > 0; offset >>= 1) {
        const float x = s[tid] + s[tid + offset];
        __syncwarp();
        s[tid] = x;
        __syncwarp();
      }
    }
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

}  // namespace

TEST_CASE(
    "the unsafe warp-synchronous unroll is wrong in every schedule, the __syncwarp version right",
    "[hazard]") {
  const unsigned block = GENERATE(64u, 256u);
  constexpr unsigned grid = 16;
  std::mt19937 rng(block);
  std::vector<float> in(grid * block);
  // integers: every sum below is exact
  for (auto& x : in) x = static_cast<float>(1 + rng() % 100);
  std::vector<float> expected(grid, 0.0f);
  double expected_total = 0;
  for (unsigned b = 0; b < grid; ++b) {
    double sum = 0;
    for (unsigned t = 0; t < block; ++t) sum += in[b * block + t];
    expected[b] = static_cast<float>(sum);
    expected_total += sum;
  }
  for (const auto& opts : simtest::every_schedule()) {
    simtest::ScopedOptions scoped(opts);
    INFO("block " << block << " schedule " << simtest::describe(opts));

    std::vector<float> unsafe(grid, 0.0f);
    rl::sim::launch("last_warp_reduce<false>", last_warp_reduce<false>, dim3(grid), dim3(block),
                    block * sizeof(float), in.data(), unsafe.data());
    double unsafe_total = 0;
    unsigned wrong_blocks = 0;
    for (unsigned b = 0; b < grid; ++b) {
      unsafe_total += unsafe[b];
      wrong_blocks += unsafe[b] != expected[b];
    }
    CHECK(unsafe_total != expected_total);
    CHECK(wrong_blocks > 0);

    std::vector<float> safe(grid, 0.0f);
    rl::sim::launch("last_warp_reduce<true>", last_warp_reduce<true>, dim3(grid), dim3(block),
                    block * sizeof(float), in.data(), safe.data());
    CHECK(safe == expected);
  }
}
