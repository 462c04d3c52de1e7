#pragma once
// How the lessons' plans size their grids, their blocks' lane groups and their scratch memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/host/plan.h"
#include "common/host/reference.h"
#include "common/launch.h"

RL_NAMESPACE_BEGIN

// One launch of a multi-pass plan: `blocks` blocks reduce the `count` values at `in` to one partial
// each, at `out` (the plan's own output on the last pass).
struct Pass {
  const float* in;
  float* out;
  std::uint64_t count;
  unsigned blocks;
};

// The launches of one reduction, in order (at most 16: even per_block = 32 needs 13 passes for
// 2^64).
struct Passes {
  Pass pass[16];
  unsigned count = 0;
  const Pass* begin() const { return pass; }
  const Pass* end() const { return pass + count; }
};

// The passes of lessons 01-06, whose blocks each turn `per_block` values into one partial: the same
// kernel runs again over the partials until a single block writes `out`. n = 0 still makes one pass
// of one block, whose masking writes the identity, 0. Later passes reuse two scratch regions in
// turn.
inline Passes tree_passes(const ReduceCall& c, std::uint64_t per_block) {
  float* regions[2] = {static_cast<float*>(c.scratch),
                       static_cast<float*>(c.scratch) + ceil_div(c.n, per_block)};
  Passes passes;
  const float* in = c.in;
  std::uint64_t count = c.n;
  for (;;) {
    const std::uint64_t blocks = count == 0 ? 1 : ceil_div(count, per_block);
    float* out = blocks == 1 ? c.out : regions[passes.count % 2];
    passes.pass[passes.count++] = Pass{in, out, count, static_cast<unsigned>(blocks)};
    if (blocks == 1) return passes;
    in = out;
    count = blocks;
  }
}

// The partials of the first pass plus those of the second.
inline std::size_t tree_scratch_bytes(std::uint64_t n, std::uint64_t per_block) {
  const std::uint64_t first = ceil_div(n, per_block);
  const std::uint64_t second = ceil_div(first, per_block);
  return static_cast<std::size_t>((first + second) * sizeof(float));
}

// Every pass adds ceil(log2 per_block) levels; a pass over k values leaves ceil(k / per_block).
inline std::uint64_t tree_depth(std::uint64_t n, std::uint64_t per_block) {
  std::uint64_t depth = 0;
  do {
    depth += summation_depth(per_block, 0);
    n = ceil_div(n, per_block);
  } while (n > 1);
  return depth;
}

// Blocks the input can feed with `per_block` floats each (at least one): the single passes of lessons
// 13 and 14 take no more than this many.
inline unsigned useful_blocks(std::uint64_t n, std::uint64_t per_block) {
  return static_cast<unsigned>(
      std::min<std::uint64_t>(ceil_div(std::max<std::uint64_t>(n, 1), per_block), 1u << 30));
}

// The grid of lessons 07-12: as many blocks as the SMs hold at once of the kernel being
// launched (`r`: kernel_resources, common/occupancy.h, which asks the occupancy API on the GPU),
// but no more than the input can feed with `items_per_thread` elements per thread.
inline unsigned persistent_grid(std::uint64_t n, unsigned block, unsigned items_per_thread,
                                const KernelResources& r, const DeviceShape& s) {
  // at least one block an SM: a kernel that fits none then fails at its launch, saying why
  const std::uint64_t resident = std::uint64_t{s.sm_count} * std::max(r.blocks_per_sm, 1u);
  const std::uint64_t useful =
      ceil_div(std::max<std::uint64_t>(n, 1), std::uint64_t{block} * items_per_thread);
  return static_cast<unsigned>(std::min(resident, useful));
}

// The passes of lessons 07-09 and 11 over a persistent grid of `grid` blocks: each leaves one
// partial in scratch, then one block sums them; a single pass when one block suffices.
inline Passes persistent_passes(const ReduceCall& c, unsigned grid) {
  auto* partials = static_cast<float*>(c.scratch);
  Passes passes;
  if (grid == 1) {
    passes.pass[passes.count++] = Pass{c.in, c.out, c.n, 1};
  } else {
    passes.pass[passes.count++] = Pass{c.in, partials, c.n, grid};
    passes.pass[passes.count++] = Pass{partials, c.out, grid, 1};
  }
  return passes;
}

// A persistent grid's depth: each thread's sequential run and its block's tree, then a second
// launch's run and tree over `grid` partials with `finish_block` threads (none when grid == 1).
inline std::uint64_t persistent_depth(std::uint64_t n, unsigned block, unsigned grid,
                                      unsigned finish_block) {
  const std::uint64_t first = summation_depth(block, ceil_div(n, std::uint64_t{grid} * block));
  return grid == 1 ? first : first + summation_depth(finish_block, ceil_div(grid, finish_block));
}

// The smallest power of two >= x (at most 2^31): how many lanes or threads lessons 19 and 20 give a
// row or a column tile of x loads before capping it.
inline unsigned next_pow2(std::uint64_t x) {
  unsigned p = 1;
  while (p < x && p < (1u << 31)) p *= 2;
  return p;
}

RL_NAMESPACE_END
