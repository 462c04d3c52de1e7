#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

namespace {

enum ShuffleKind : int { kIdx = 0, kUp = 1, kDown = 2, kXor = 3 };

struct ShuffleCase {
  int kind;
  unsigned mask;
  int width;
  int arg;  // idx: srcLane = arg + 5 * lane; up/down: delta; xor: lane mask
};

template <class T>
__global__ void shuffle_kernel(ShuffleCase c, const T* in, T* out) {
  const unsigned tid = threadIdx.x;
  const unsigned lane = tid % warpSize;
  if (!((c.mask >> lane) & 1u)) return;  // lanes outside the mask leave (they are not named)
  const T v = in[tid];
  T r{};
  switch (c.kind) {
    case kIdx:
      r = __shfl_sync(c.mask, v, c.arg + 5 * static_cast<int>(lane), c.width);
      break;
    case kUp:
      r = __shfl_up_sync(c.mask, v, static_cast<unsigned>(c.arg), c.width);
      break;
    case kDown:
      r = __shfl_down_sync(c.mask, v, static_cast<unsigned>(c.arg), c.width);
      break;
    case kXor:
      r = __shfl_xor_sync(c.mask, v, c.arg, c.width);
      break;
  }
  out[tid] = r;
}

// CUDA programming guide rules, written with division/modulo on purpose (the simulator
// uses PTX-style bit masks): the warp is split into groups of `width` lanes.
unsigned model_source(int kind, unsigned lane, int arg, int width) {
  const unsigned w = static_cast<unsigned>(width);
  const unsigned group = lane / w, pos = lane % w;
  switch (kind) {
    case kIdx: {
      const long long src = arg + 5LL * lane;
      const long long in_group = ((src % width) + width) % width;
      return group * w + static_cast<unsigned>(in_group);
    }
    case kUp:
      return pos >= static_cast<unsigned>(arg) ? lane - static_cast<unsigned>(arg) : lane;
    case kDown:
      return pos + static_cast<unsigned>(arg) < w ? lane + static_cast<unsigned>(arg) : lane;
    case kXor: {
      const unsigned t = lane ^ static_cast<unsigned>(arg);
      return t / w <= group ? t : lane;  // earlier groups may be read, later ones not
    }
  }
  return lane;
}

template <class T>
std::uint64_t bits_of(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <class T>
T value_for(unsigned tid) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(tid) * T(1.5) + T(0.25);
  else
    return static_cast<T>(1000 + 7 * tid);
}

}  // namespace

TEMPLATE_TEST_CASE("shuffles follow CUDA's width and out-of-range rules", "[warp][shfl]", float,
                   double, int, unsigned, long long, unsigned long long) {
  using T = TestType;
  constexpr unsigned block = 64;  // two warps
  std::vector<T> in(block);
  for (unsigned t = 0; t < block; ++t) in[t] = value_for<T>(t);
  const T sentinel = static_cast<T>(42);
  const std::uint64_t poison_bits = sizeof(T) == 8 ? ~std::uint64_t{0} : 0xffffffffull;

  const std::vector<unsigned> masks = {0xffffffffu, 0x0000ffffu, 0xaaaaaaaau, 0x00ff00f0u,
                                       0x00000001u};
  const std::vector<int> widths = {1, 2, 4, 8, 16, 32};
  for (const auto& opts : {simtest::make_options(rl::sim::Schedule::lane_order),
                           simtest::make_options(rl::sim::Schedule::shuffled, 5)}) {
    simtest::ScopedOptions scoped(opts);
    for (int kind : {kIdx, kUp, kDown, kXor}) {
      const std::vector<int> args = kind == kIdx ? std::vector<int>{-40, -1, 0, 7, 33}
                                                 : std::vector<int>{0, 1, 3, 5, 16, 31, 40};
      for (unsigned mask : masks)
        for (int width : widths)
          for (int arg : args) {
            std::vector<T> out(block, sentinel);
            rl::sim::launch("shuffle_kernel", shuffle_kernel<T>, dim3(1), dim3(block), 0,
                            ShuffleCase{kind, mask, width, arg}, in.data(), out.data());
            for (unsigned tid = 0; tid < block; ++tid) {
              const unsigned lane = tid % 32, base = tid - lane;
              INFO("kind " << kind << " mask " << mask << " width " << width << " arg " << arg
                           << " tid " << tid << " " << simtest::describe(opts));
              if (!((mask >> lane) & 1u)) {
                CHECK(bits_of(out[tid]) == bits_of(sentinel));
                continue;
              }
              const unsigned src = model_source(kind, lane, arg, width);
              const std::uint64_t expected =
                  ((mask >> src) & 1u) ? bits_of(in[base + src]) : poison_bits;
              CHECK(bits_of(out[tid]) == expected);
            }
          }
    }
  }
}

namespace {

__global__ void vote_kernel(unsigned mask, const int* pred, unsigned* out) {
  const unsigned tid = threadIdx.x, lane = tid % 32;
  if (!((mask >> lane) & 1u)) return;
  const int p = pred[tid];
  out[3 * tid + 0] = __ballot_sync(mask, p);
  out[3 * tid + 1] = static_cast<unsigned>(__all_sync(mask, p));
  out[3 * tid + 2] = static_cast<unsigned>(__any_sync(mask, p));
}

__global__ void activemask_kernel(unsigned* out) {
  const unsigned tid = threadIdx.x;
  out[2 * tid] = __activemask();
  __syncwarp(__activemask());
  if (tid % 32 >= 16) return;
  __syncwarp(__activemask() & 0x0000ffffu);  // every lane ran once before anyone gets here
  out[2 * tid + 1] = __activemask();
  __syncwarp(__activemask() & 0x0000ffffu);  // nobody exits before all lanes have asked
}

__global__ void warp_from_linear_id(unsigned* out) {
  const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[linear] = __ballot_sync(0xffffffffu, threadIdx.y & 1u);
}

}  // namespace

TEST_CASE("__ballot_sync, __all_sync and __any_sync over full and partial masks", "[warp][vote]") {
  constexpr unsigned block = 64;
  std::mt19937 rng(11);
  for (unsigned mask : {0xffffffffu, 0x0f0f0f0fu, 0x80000001u, 0x00000004u}) {
    for (int pattern = 0; pattern < 4; ++pattern) {
      std::vector<int> pred(block);
      for (unsigned t = 0; t < block; ++t)
        pred[t] = pattern == 0   ? 1
                  : pattern == 1 ? 0
                  : pattern == 2 ? static_cast<int>(rng() % 2) * 5
                                 : static_cast<int>(t % 3 == 0);
      for (const auto& opts : simtest::every_schedule()) {
        simtest::ScopedOptions scoped(opts);
        std::vector<unsigned> out(3 * block, 7u);
        rl::sim::launch("vote_kernel", vote_kernel, dim3(1), dim3(block), 0, mask, pred.data(),
                        out.data());
        for (unsigned w = 0; w < 2; ++w) {
          unsigned ballot = 0;
          for (unsigned l = 0; l < 32; ++l)
            if (((mask >> l) & 1u) && pred[w * 32 + l] != 0) ballot |= 1u << l;
          for (unsigned l = 0; l < 32; ++l) {
            const unsigned tid = w * 32 + l;
            INFO("mask " << mask << " pattern " << pattern << " tid " << tid);
            if (!((mask >> l) & 1u)) {
              CHECK(out[3 * tid] == 7u);
              continue;
            }
            CHECK(out[3 * tid + 0] == ballot);
            CHECK(out[3 * tid + 1] == (ballot == mask ? 1u : 0u));
            CHECK(out[3 * tid + 2] == (ballot != 0 ? 1u : 0u));
          }
        }
      }
    }
  }
}

TEST_CASE("__activemask names the lanes of the warp that have not exited", "[warp][vote]") {
  constexpr unsigned block = 40;  // warp 1 has 8 lanes
  for (const auto& opts : simtest::every_schedule()) {
    simtest::ScopedOptions scoped(opts);
    std::vector<unsigned> out(2 * block, 0);
    rl::sim::launch("activemask_kernel", activemask_kernel, dim3(1), dim3(block), 0, out.data());
    for (unsigned tid = 0; tid < block; ++tid) {
      const unsigned lanes = tid < 32 ? 32 : block - 32;
      const unsigned all = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
      CHECK(out[2 * tid] == all);
      if (tid % 32 < 16) CHECK(out[2 * tid + 1] == (all & 0x0000ffffu));
    }
  }
}

TEST_CASE("warps are formed from the linear thread id of multi-dimensional blocks", "[warp]") {
  const dim3 block(8, 4, 2);  // 64 threads, two warps
  std::vector<unsigned> out(64, 0);
  rl::sim::launch("warp_from_linear_id", warp_from_linear_id, dim3(1), block, 0, out.data());
  for (unsigned w = 0; w < 2; ++w) {
    unsigned expected = 0;
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned linear = w * 32 + l;
      const unsigned y = (linear / block.x) % block.y;
      if (y & 1u) expected |= 1u << l;
    }
    for (unsigned l = 0; l < 32; ++l) CHECK(out[w * 32 + l] == expected);
  }
}
