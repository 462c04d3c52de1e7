#pragma once
// Reductions that each lose one block's share of the input, for the tests that show which checks
// see it: one per shape of plan (a tree of passes, a persistent grid and one finishing block, a
// single pass whose last block finishes, clusters that add their blocks' sums). Lesson 22 takes
// lesson 12's on every GPU.
#include "common/host/plan.h"

namespace rl::test {

// The dropped-block plan of lesson `lesson` (3, 7, 12 or 14; std::invalid_argument otherwise), on
// backend B. Defined in dropped_block_plan.cu, compiled once per backend (dropped_block_sim.cpp for
// g++).
//   3:  lesson 03's kernel; the second pass is told one partial fewer than the first pass wrote, so
//       the last block's partial (the last 256 inputs, with 256-thread blocks) is never added.
//   7:  lesson 07's kernel; the same mistake in its finishing launch: told grid - 1 partials, so
//       the last block of the persistent grid (every grid-th run of `block` inputs) is never added.
//   12: lesson 12's kernel with the mistake in its finish: the last block adds partials 0 .. G - 2,
//       so block G - 1's share is lost (G: the grid; with G = 1 it adds nothing, and all is lost).
//   14: lesson 14's clusters of 4 (its cluster4 variant, the exchange its exercise hands out) with
//       the mistake in the cluster's sum: the first block adds ranks 0 .. 2 only, so the last block
//       of every cluster is lost. (The lesson's own plan runs the same kernel in clusters of one.)
template <Backend B>
Plan dropped_block_plan(int lesson = 3);

}  // namespace rl::test
