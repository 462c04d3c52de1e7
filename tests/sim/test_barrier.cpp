#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

namespace {

constexpr int kPhases = 3;

// Each phase: every thread writes its slot, barrier, every thread reads two OTHER
// threads' slots, barrier (so the next phase's writes cannot race the reads).
__global__ void barrier_phases(const unsigned* in, unsigned* out) {
  unsigned* s = rl::dynamic_shared<unsigned>();
  const unsigned n = blockDim.x;
  const unsigned tid = threadIdx.x;
  const unsigned long long g = (unsigned long long)blockIdx.x * n + tid;
  unsigned v = in[g];
  for (int phase = 0; phase < kPhases; ++phase) {
    s[tid] = v * 3u + static_cast<unsigned>(phase);
    __syncthreads();
    v = s[(tid * 7u + 3u) % n] + s[n - 1 - tid];
    __syncthreads();
  }
  out[g] = v;
}

std::vector<unsigned> model_barrier_phases(const std::vector<unsigned>& in, unsigned grid,
                                           unsigned n) {
  std::vector<unsigned> out(in.size());
  for (unsigned b = 0; b < grid; ++b) {
    std::vector<unsigned> v(in.begin() + b * n, in.begin() + (b + 1) * n), s(n);
    for (int phase = 0; phase < kPhases; ++phase) {
      for (unsigned t = 0; t < n; ++t) s[t] = v[t] * 3u + static_cast<unsigned>(phase);
      for (unsigned t = 0; t < n; ++t) v[t] = s[(t * 7u + 3u) % n] + s[n - 1 - t];
    }
    for (unsigned t = 0; t < n; ++t) out[b * n + t] = v[t];
  }
  return out;
}

__global__ void barrier_reductions(const int* pred, int* out) {
  const unsigned tid = threadIdx.x;
  const int p = pred[blockIdx.x * blockDim.x + tid];
  const int count = __syncthreads_count(p);
  const int all = __syncthreads_and(p);
  const int any = __syncthreads_or(p);
  int* o = out + 3 * (blockIdx.x * blockDim.x + tid);
  o[0] = count;
  o[1] = all;
  o[2] = any;
}

}  // namespace

TEST_CASE("writes before __syncthreads are visible to every thread after it", "[barrier]") {
  const unsigned block_size = GENERATE(1u, 33u, 96u, 1024u);
  const unsigned grid = 3;
  std::mt19937 rng(block_size);
  std::vector<unsigned> in(grid * block_size);
  for (auto& x : in) x = rng() % 100000;
  const std::vector<unsigned> expected = model_barrier_phases(in, grid, block_size);
  for (const auto& opts : simtest::every_schedule(2)) {
    simtest::ScopedOptions scoped(opts);
    INFO("block " << block_size << " schedule " << simtest::describe(opts));
    std::vector<unsigned> out(in.size(), 0);
    rl::sim::launch("barrier_phases", barrier_phases, dim3(grid), dim3(block_size),
                    block_size * sizeof(unsigned), in.data(), out.data());
    CHECK(out == expected);
  }
}

TEST_CASE("__syncthreads_count/_and/_or reduce the predicate over the block", "[barrier]") {
  const unsigned block_size = GENERATE(1u, 33u, 128u);
  const unsigned grid = 4;
  std::mt19937 rng(block_size + 7);
  std::vector<int> pred(grid * block_size);
  for (unsigned b = 0; b < grid; ++b)
    // block 0 all true, block 1 all false, others random
    for (unsigned t = 0; t < block_size; ++t)
      pred[b * block_size + t] = b == 0 ? 1 : b == 1 ? 0 : static_cast<int>(rng() % 2);
  std::vector<int> out(3 * pred.size(), -1);
  rl::sim::launch("barrier_reductions", barrier_reductions, dim3(grid), dim3(block_size), 0,
                  pred.data(), out.data());
  for (unsigned b = 0; b < grid; ++b) {
    int count = 0;
    for (unsigned t = 0; t < block_size; ++t) count += pred[b * block_size + t] != 0;
    for (unsigned t = 0; t < block_size; ++t) {
      const int* o = &out[3 * (b * block_size + t)];
      CHECK(o[0] == count);
      CHECK(o[1] == (count == static_cast<int>(block_size) ? 1 : 0));
      CHECK(o[2] == (count > 0 ? 1 : 0));
    }
  }
}
