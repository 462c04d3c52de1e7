// The multi-pass plan of lessons 01-06: scratch sizes and depths for the sizes the tests use.
#include <catch2/catch.hpp>

#include "common/tree_passes.h"

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
