// Lesson 17's launch plans: every kernel of broken.cuh (the bugs) and of common_bugs.cuh (the
// kernels this build grades: the fixes, or in a student build the student's), each as lesson 03
// launches its tree. main.cpp -> lesson_plans<17, backend>() and bugs::broken_plans<backend>() at
// the end of this file, which CMake compiles twice: by nvcc for the GPU and by g++ for the
// simulator.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/plan_entry.h"
#include "lessons/17_common_bugs/broken.cuh"
#include "lessons/17_common_bugs/bugs.h"
#include "lessons/17_common_bugs/common_bugs.cuh"

RL_NAMESPACE_BEGIN
namespace {

using Grid = std::uint64_t (*)(std::uint64_t count, std::uint64_t per_block);

// The grid of every pass but dropped_block's: rounded up, so the last, partial block runs too.
std::uint64_t rounded_up(std::uint64_t count, std::uint64_t per_block) {
  return ceil_div(count, per_block);
}

// Lesson 03's passes (tree_passes, common/grid_size.h): each block turns `block` values into one
// partial, and the kernel runs again over the partials until one block writes out. The blocks a
// pass launches are grid(count, block), at least one; for every kernel but dropped_block, rounded
// up.
//   kernel<<<max(1, grid(n, block)), block, block * sizeof(float), stream>>>(in, partials, n);  ...
// K: the kernel, with the NoTrace policy (what is graded and timed) or RecordTrace (a trace).
template <auto K, Grid G, unsigned Bug>
void reduce(const ReduceCall& c) {
  // The kernel's name in a report (a string literal, so data() ends with its 0).
  const char* name = bugs::catalogue[Bug].name.data();
  float* regions[2] = {static_cast<float*>(c.scratch),
                       static_cast<float*>(c.scratch) + ceil_div(c.n, c.block)};
  const float* in = c.in;
  std::uint64_t count = c.n;
  for (unsigned k = 0;; ++k) {
    const std::uint64_t blocks = std::max<std::uint64_t>(1, G(count, c.block));
    // A grid function gone wrong (a student's dropped_block_grid) must not loop or launch forever.
    if (k == 16 || (blocks > 1 && blocks >= count) || blocks > 2147483647u)
      throw std::runtime_error("lesson 17: a pass over " + std::to_string(count) +
                               " values asked for " + std::to_string(blocks) + " blocks of " +
                               std::to_string(c.block) +
                               ": a pass must launch fewer blocks than it has values");
    float* out = blocks == 1 ? c.out : regions[k % 2];
    launch(name, K, dim3(static_cast<unsigned>(blocks)), dim3(c.block), c.block * sizeof(float),
           c.stream, in, out, count);
    if (blocks == 1) return;
    in = out;
    count = blocks;
  }
}

// missing_fence is lesson 12's shape: one launch of a grid of at most 1024 blocks, each adding a
// grid-stride share of 16 or more inputs a thread, its partial in scratch, the last block to take a
// ticket adding them all.
//   missing_fence<<<grid, block, block * sizeof(float), stream>>>(in, out, n, partials);
using SinglePassKernel = void (*)(In<NoTrace>, Out<NoTrace>, std::uint64_t, Out<NoTrace>);

std::uint64_t single_pass_grid(std::uint64_t n, unsigned block) {
  return std::clamp<std::uint64_t>(ceil_div(n, std::uint64_t{block} * 16), 1, 1024);
}

template <SinglePassKernel K, unsigned Bug>
void reduce_single_pass(const ReduceCall& c) {
  const std::uint64_t grid = single_pass_grid(c.n, c.block);
  name_buffer(c.scratch, grid * sizeof(float), "partials");  // for the race detector's report
  launch(bugs::catalogue[Bug].name.data(), K, dim3(static_cast<unsigned>(grid)), dim3(c.block),
         c.block * sizeof(float), c.stream, c.in, c.out, c.n, static_cast<float*>(c.scratch));
}

// Bug number `bug` of the catalogue, which must be the one named: the kernels are listed by name.
Plan plan_of(unsigned bug, std::string_view name, std::string_view source, ReduceFunction reduce,
             ReduceFunction reduce_traced) {
  if (bugs::catalogue[bug].name != name)
    throw std::logic_error("lesson 17: plan " + std::to_string(bug) + " is " + std::string(name) +
                           ", not " + std::string(bugs::catalogue[bug].name) + " as in bugs.h");
  Plan p = tree_plan<1>(17, "common_bugs", bugs::catalogue[bug].mistake, reduce, reduce_traced);
  p.variant = name;
  p.source = source;
  return p;
}

// The same for a single-pass bug: its scratch holds a partial per block, its depth is a thread's
// share, the block's tree and the last block's thread 0 adding every partial. Not traced: its
// finish reads the ticket, which lies in no buffer a trace names.
Plan single_pass_plan_of(unsigned bug, std::string_view name, std::string_view source,
                         ReduceFunction reduce) {
  Plan p = plan_of(bug, name, source, reduce, nullptr);
  p.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    return static_cast<std::size_t>(single_pass_grid(n, block) * sizeof(float));
  };
  p.depth = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    const std::uint64_t grid = single_pass_grid(n, block);
    return ceil_div(n, grid * block) + summation_depth(block, 0) + grid;
  };
  return p;
}

// Bug B of the catalogue, kernel NAME of namespace NS with grid GRID: its plan, run plain and traced.
#define RL_LESSON18_PLAN(NS, SOURCE, B, NAME, GRID)             \
  plan_of(B, #NAME, SOURCE, reduce<NS::NAME<NoTrace>, GRID, B>, \
          reduce<NS::NAME<RecordTrace>, GRID, B>)

// The ten reductions of one kernel file (namespace NS), in catalogue order (bugs.h).
// clang-format off
#define RL_LESSON18_PLANS(NS, SOURCE)                                                                    \
  Plans{RL_LESSON18_PLAN(NS, SOURCE, 0, missing_barrier_in_loop, rounded_up),                            \
        RL_LESSON18_PLAN(NS, SOURCE, 1, barrier_only_above_warp, rounded_up),                            \
        RL_LESSON18_PLAN(NS, SOURCE, 2, barrier_inside_branch, rounded_up),                              \
        RL_LESSON18_PLAN(NS, SOURCE, 3, stride_never_halves, rounded_up),                                \
        RL_LESSON18_PLAN(NS, SOURCE, 4, reads_past_shared_memory, rounded_up),                           \
        RL_LESSON18_PLAN(NS, SOURCE, 5, never_writes_output, rounded_up),                                \
        RL_LESSON18_PLAN(NS, SOURCE, 6, dropped_block, NS::dropped_block_grid),                          \
        RL_LESSON18_PLAN(NS, SOURCE, 7, volatile_tail, rounded_up),                                      \
        RL_LESSON18_PLAN(NS, SOURCE, 8, missing_syncwarp, rounded_up),                                   \
        single_pass_plan_of(9, "missing_fence", SOURCE, reduce_single_pass<NS::missing_fence<NoTrace>, 9>)}
// clang-format on

}  // namespace
RL_NAMESPACE_END

template <>
rl::Plans rl::lesson_plans<17, rl::this_backend>() {
  return RL_LESSON18_PLANS(graded, kernel_source);
}

template <>
rl::Plans rl::bugs::broken_plans<rl::this_backend>() {
  return RL_LESSON18_PLANS(broken, "lessons/17_common_bugs/broken.cuh");
}
