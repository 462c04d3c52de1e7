// Cooperative groups' tile reduction (cooperative_groups::reduce) and the warp reductions
// __reduce_add/min/max_sync on the simulator, against plain loops.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <random>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

namespace cg = cooperative_groups;

namespace {

// out[3 t + k]: the sum, minimum and maximum over thread t's tile of Size threads.
template <unsigned Size, class T>
__global__ void tile_reduce(const T* in, T* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const unsigned t = block.thread_rank();
  const T v = in[t];
  out[3 * t] = cg::reduce(tile, v, cg::plus<T>());
  out[3 * t + 1] = cg::reduce(tile, v, cg::less<T>());
  out[3 * t + 2] = cg::reduce(tile, v, cg::greater<T>());
  // the tile's queries, checked on the host through these
  if (tile.thread_rank() != t % Size || tile.meta_group_rank() != t / Size ||
      tile.num_threads() != Size)
    out[3 * t] = T(-999);
}

// out[3 t + k]: __reduce_add/min/max_sync over the lanes of `mask` (lanes outside it leave).
template <class T>
__global__ void warp_reduce(const T* in, T* out, unsigned mask) {
  const unsigned t = threadIdx.x;
  if (!(mask >> (t % 32) & 1u)) return;
  out[3 * t] = __reduce_add_sync(mask, in[t]);
  out[3 * t + 1] = __reduce_min_sync(mask, in[t]);
  out[3 * t + 2] = __reduce_max_sync(mask, in[t]);
}

template <class T>
void check_groups(const std::vector<T>& in, const std::vector<T>& out, unsigned size,
                  unsigned mask) {
  for (unsigned t = 0; t < in.size(); ++t) {
    if (!(mask >> (t % 32) & 1u)) continue;
    T sum = 0, lo = in[t], hi = in[t];
    const unsigned first = t / size * size;
    for (unsigned u = first; u < first + size; ++u) {
      if (!(mask >> (u % 32) & 1u)) continue;
      sum = static_cast<T>(sum + in[u]);
      lo = std::min(lo, in[u]);
      hi = std::max(hi, in[u]);
    }
    INFO("thread " << t << " groups of " << size << " mask " << mask);
    CHECK(out[3 * t] == sum);
    CHECK(out[3 * t + 1] == lo);
    CHECK(out[3 * t + 2] == hi);
  }
}

template <unsigned Size, class T>
void run_tiles(unsigned block) {
  std::mt19937 rng(Size + block);
  std::vector<T> in(block), out(3 * block);
  for (auto& x : in) x = static_cast<T>(static_cast<int>(rng() % 2001) - 1000);
  for (const auto& opts : simtest::every_schedule(1)) {
    simtest::ScopedOptions scoped(opts);
    rl::sim::launch("tile_reduce", tile_reduce<Size, T>, dim3(1), dim3(block), 0, in.data(),
                    out.data());
    check_groups(in, out, Size, 0xffffffffu);
  }
}

}  // namespace

TEST_CASE("cooperative_groups::reduce over tiles of 32, 16 and 8 threads", "[cg]") {
  for (unsigned block : {32u, 96u, 256u}) {
    run_tiles<32, int>(block);
    run_tiles<16, int>(block);
    run_tiles<8, float>(block);  // small integers: float sums are exact in any order
    run_tiles<32, float>(block);
  }
}

TEST_CASE("__reduce_add/min/max_sync over full and partial masks, signed and unsigned", "[cg]") {
  std::mt19937 rng(7);
  for (unsigned mask : {0xffffffffu, 0x0000ffffu, 0x80000001u, 0x5a5a5a5au}) {
    std::vector<int> in(64), out(3 * 64, 0);
    for (auto& x : in) x = static_cast<int>(rng() % 2000001) - 1000000;
    in[3] = INT_MAX;  // the sum wraps, as the hardware's does
    in[4] = INT_MIN;
    rl::sim::launch("warp_reduce", warp_reduce<int>, dim3(1), dim3(64), 0, in.data(), out.data(),
                    mask);
    std::vector<int> expected = out;
    for (unsigned t = 0; t < 64; ++t) {
      if (!(mask >> (t % 32) & 1u)) continue;
      unsigned sum = 0;
      int lo = INT_MAX, hi = INT_MIN;
      for (unsigned u = t / 32 * 32; u < t / 32 * 32 + 32; ++u)
        if (mask >> (u % 32) & 1u) {
          sum += static_cast<unsigned>(in[u]);
          lo = std::min(lo, in[u]);
          hi = std::max(hi, in[u]);
        }
      CHECK(out[3 * t] == static_cast<int>(sum));
      CHECK(out[3 * t + 1] == lo);
      CHECK(out[3 * t + 2] == hi);
    }
    std::vector<unsigned> uin(64), uout(3 * 64, 0);
    for (auto& x : uin) x = static_cast<unsigned>(rng());
    rl::sim::launch("warp_reduce", warp_reduce<unsigned>, dim3(1), dim3(64), 0, uin.data(),
                    uout.data(), mask);
    check_groups(uin, uout, 32, mask);
  }
}
