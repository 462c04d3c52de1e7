// Lesson 02's launch plan: the grid, the block, the shared memory, the passes.
// main.cpp -> rl::lesson_main<2> -> lesson_plans<2, backend>() at the end of this file, which CMake
// compiles twice: by nvcc for the GPU and by g++ for the simulator.
#include <algorithm>

#include "common/plan_entry.h"
#include "lessons/02_interleaved_strided/interleaved_strided.cuh"

RL_NAMESPACE_BEGIN
namespace {

// Shared words a block of `threads` needs: one past the highest slot its tree uses.
template <bool Padded>
unsigned shared_words(unsigned threads) {
  if constexpr (!Padded) return threads;
  unsigned words = 0;  // any placement of the slots, not only the lesson's: a loop, not a formula
  for (unsigned k = 0; k < threads; ++k) words = std::max(words, slot<Padded>(k) + 1);
  return words;
}

// Each block reduces `block` inputs to one partial, so the kernel runs again over the partials
// until one block is left (tree_passes, common/grid_size.h):
//   interleaved_strided<<<ceil(n / block), block, smem, stream>>>(in, partials, n);
//   interleaved_strided<<<ceil(partials / block), block, smem, stream>>>(partials, ...);
//   ... until one block writes out, where smem = shared_words(block) * sizeof(float): one float
//   per thread, and the `padded` variant's spare words
template <bool Padded, class Trace>
void reduce(const ReduceCall& c) {
  const std::size_t smem = shared_words<Padded>(c.block) * sizeof(float);
  for (const Pass& pass : tree_passes(c, c.block))
    launch("interleaved_strided", interleaved_strided<Padded, Trace>, dim3(pass.blocks),
           dim3(c.block), smem, c.stream, pass.in, pass.out, pass.count);
}

// The lesson's kernel, or its `padded` variant: the same pairs, the same threads, other words.
template <bool Padded>
Plan plan() {
  Plan p = tree_plan<1>(2, "interleaved_strided", "Interleaved addressing, strided index",
                        reduce<Padded, NoTrace>, reduce<Padded, RecordTrace>);
  p.variant = Padded ? "padded" : "";
  // Graded in a trace (common/host/idea.h), on the padded variant, whose slots are the exercise's
  // and whose loop is the lesson's: lesson 01's divergent warps gone, and the bank conflicts too.
  if (Padded) p.idea = {.tree = true, .whole_warps = true, .no_bank_conflicts = true};
  return p;
}

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<2, rl::this_backend>() {
  return {plan<false>(), plan<true>()};
}
