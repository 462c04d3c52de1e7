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
#include "tests/hopper/hopper_kernels.cuh"
#include "tests/hopper/references.h"
#include "tests/sim/schedules.h"

namespace cg = cooperative_groups;
using namespace hopper_test;

namespace {

template <class T>
void check_groups(const std::vector<T>& in, const std::vector<T>& out, unsigned size,
                  unsigned mask) {
  const std::vector<T> expected = group_reductions(in, size, mask, T(0));
  for (std::size_t t = 0; t < in.size(); ++t) {
    if (!(mask >> (t % 32) & 1u)) continue;
    INFO("thread " << t << " groups of " << size << " mask " << mask);
    CHECK(out[3 * t] == expected[3 * t]);
    CHECK(out[3 * t + 1] == expected[3 * t + 1]);
    CHECK(out[3 * t + 2] == expected[3 * t + 2]);
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
    check_groups(in, out, 32, mask);
    std::vector<unsigned> uin(64), uout(3 * 64, 0);
    for (auto& x : uin) x = static_cast<unsigned>(rng());
    rl::sim::launch("warp_reduce", warp_reduce<unsigned>, dim3(1), dim3(64), 0, uin.data(),
                    uout.data(), mask);
    check_groups(uin, uout, 32, mask);
  }
}
