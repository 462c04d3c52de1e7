// The multi-pass plan of lessons 01-06: scratch sizes and depths for the sizes the tests use.
#include <catch2/catch.hpp>

#include <vector>

#include "common/grid_size.h"

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
  Passes passes = persistent_passes(c, 2);
  REQUIRE(passes.count == 1);
  CHECK(passes.pass[0].out == &out);
  c.n = 1 << 20;
  passes = persistent_passes(c, 2);
  REQUIRE(passes.count == 2);
  CHECK(passes.pass[0].blocks == persistent_grid(c.n, 256, 2, c.shape));
  CHECK(passes.pass[1].in == passes.pass[0].out);
  CHECK(passes.pass[1].count == passes.pass[0].blocks);
  CHECK(passes.pass[1].blocks == 1);
  CHECK(passes.pass[1].out == &out);
}
