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

TEST_CASE("tree passes run the kernel again over the partials until one block writes the output", "[plan]") {
  float scratch[300];  // 274 + 2 partials
  const float* in = reinterpret_cast<const float*>(0x1000);
  float out = 0.0f;
  std::vector<TreePass> passes;
  for_each_tree_pass(in, &out, 70000, 256, scratch, [&](const TreePass& p) { passes.push_back(p); });
  REQUIRE(passes.size() == 3);  // 70000 -> 274 partials -> 2 -> 1
  CHECK(passes[0].in == in);
  CHECK(passes[0].blocks == 274);
  CHECK(passes[1].in == passes[0].out);
  CHECK(passes[1].count == 274);
  CHECK(passes[1].blocks == 2);
  CHECK(passes[1].out != passes[0].out);  // the two scratch regions in turn
  CHECK(passes[2].count == 2);
  CHECK(passes[2].blocks == 1);
  CHECK(passes[2].out == &out);
  passes.clear();
  for_each_tree_pass(in, &out, 0, 256, scratch, [&](const TreePass& p) { passes.push_back(p); });
  REQUIRE(passes.size() == 1);  // n = 0 still launches one block, which writes the identity
  CHECK(passes[0].blocks == 1);
  CHECK(passes[0].out == &out);
}
