// The multi-pass plan of lessons 01-06: scratch sizes and depths for the sizes the tests use.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "common/grid_size.h"
#include "common/occupancy.h"

using namespace rl;

TEST_CASE("tree plan scratch holds the first two passes' partials", "[plan]") {
  CHECK(tree_scratch_bytes(0, 256) == 0);
  CHECK(tree_scratch_bytes(1, 256) == 2 * sizeof(float));
  CHECK(tree_scratch_bytes(257, 256) == 3 * sizeof(float));
  CHECK(tree_scratch_bytes(1 << 20, 256) == (4096 + 16) * sizeof(float));
}

TEST_CASE("tree plan depth counts every pass's levels", "[plan]") {
  CHECK(tree_depth(1, 256) == 9);
  CHECK(tree_depth(256, 256) == 9);
  CHECK(tree_depth(257, 256) == 18);
  CHECK(tree_depth(1 << 24, 256) == 27);
}

TEST_CASE("tree passes run the kernel again over the partials until one block writes the output",
          "[plan]") {
  float scratch[300];  // 274 + 2 partials
  ReduceCall c;
  c.in = reinterpret_cast<const float*>(0x1000);
  float out = 0.0f;
  c.out = &out;
  c.n = 70000;
  c.scratch = scratch;
  const Passes passes = tree_passes(c, 256);
  REQUIRE(passes.count == 3);  // 70000 -> 274 partials -> 2 -> 1
  CHECK(passes.pass[0].in == c.in);
  CHECK(passes.pass[0].blocks == 274);
  CHECK(passes.pass[1].in == passes.pass[0].out);
  CHECK(passes.pass[1].count == 274);
  CHECK(passes.pass[1].blocks == 2);
  CHECK(passes.pass[1].out != passes.pass[0].out);  // the two scratch regions in turn
  CHECK(passes.pass[2].count == 2);
  CHECK(passes.pass[2].blocks == 1);
  CHECK(passes.pass[2].out == &out);
  c.n = 0;
  const Passes empty = tree_passes(c, 256);
  REQUIRE(empty.count == 1);  // n = 0 still launches one block, which writes the identity
  CHECK(empty.pass[0].blocks == 1);
  CHECK(empty.pass[0].out == &out);
}

TEST_CASE("a persistent grid makes one pass when one block suffices, else two", "[plan]") {
  float scratch[300];
  float out = 0.0f;
  ReduceCall c;
  c.out = &out;
  c.scratch = scratch;
  c.block = 256;
  c.n = 100;
  Passes passes = persistent_passes(c, 1);
  REQUIRE(passes.count == 1);
  CHECK(passes.pass[0].out == &out);
  c.n = 1 << 20;
  passes = persistent_passes(c, 1056);
  REQUIRE(passes.count == 2);
  CHECK(passes.pass[0].blocks == 1056);
  CHECK(passes.pass[1].in == passes.pass[0].out);
  CHECK(passes.pass[1].count == passes.pass[0].blocks);
  CHECK(passes.pass[1].blocks == 1);
  CHECK(passes.pass[1].out == &out);
}

TEST_CASE("a persistent grid is the blocks the SMs hold at once, as far as the input feeds them",
          "[plan]") {
  const DeviceShape h100;  // the simulator's shape: 132 SMs
  KernelResources r;
  r.blocks_per_sm = 8;
  CHECK(persistent_grid(1 << 24, 256, 2, r, h100) == 132 * 8);
  r.blocks_per_sm = 2;  // lesson 12 at 1024 threads: 32 registers each, two blocks fill the file
  CHECK(persistent_grid(1 << 24, 1024, 16, r, h100) == 264);
  CHECK(persistent_grid(1 << 20, 1024, 16, r, h100) == 64);  // 2^20 / (1024 x 16)
  CHECK(persistent_grid(0, 256, 2, r, h100) == 1);
  r.blocks_per_sm = 0;  // fits none: one a SM all the same, and the launch says why
  CHECK(persistent_grid(1 << 24, 1024, 16, r, h100) == 132);
}

TEST_CASE("the simulator's occupancy is its shape's thread, block and shared-memory limits",
          "[plan]") {
  const DeviceShape s;  // an H100's: 2048 threads, 32 blocks, 228 KiB of shared memory an SM
  // Lessons 07-12's blocks, with lesson 07's shared array: the thread limit, at most 32 blocks
  // (what persistent_grid counted before it asked the occupancy API, so the simulator's grids
  // stay).
  const std::pair<unsigned, unsigned> expected[] = {{32, 32}, {64, 32}, {128, 16},
                                                    {256, 8}, {512, 4}, {1024, 2}};
  for (const auto& [block, blocks] : expected) {
    INFO("block " << block);
    CHECK(shape_blocks_per_sm(block, block * sizeof(float), s) == blocks);
    CHECK(shape_blocks_per_sm(block, 0, s) == blocks);
  }
  // 48 KiB a block, plus the 1 KiB the system keeps: 233472 / 50176 = 4.65, so 4.
  CHECK(shape_blocks_per_sm(256, 48 * 1024, s) == 4);
  CHECK(shape_blocks_per_sm(128, 300 * 1024, s) == 0);
}
