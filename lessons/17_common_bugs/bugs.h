#pragma once
// Lesson 17's bugs by name, in the order the grader takes them: the lesson each breaks, the
// mistake, the fix, and what the simulator's grader calls it (a bug tag, common/host/grading.h).
// Host code: plan.cu names its plans from it, main.cpp lists and runs them, the tests check each
// diagnosis.
#include <string_view>

#include "common/host/plan.h"

namespace rl::bugs {

struct Bug {
  std::string_view name;     // the plan's variant, the kernel's name, `--bug NAME`
  int lesson;                // the lesson whose kernel it breaks
  std::string_view mistake;  // one line
  std::string_view fix;      // one line
  std::string_view tag;      // the bug class the grader names on the simulator (race, barrier, ...)
};

inline constexpr Bug catalogue[] = {
    {"missing_barrier_in_loop", 3, "no __syncthreads() between the levels of the tree",
     "a __syncthreads() after each level, outside the if", "race"},
    {"barrier_only_above_warp", 3,
     "if (stride > 32) __syncthreads(): no barrier once a warp is left",
     "the barrier at every level", "race"},
    {"barrier_inside_branch", 3,
     "__syncthreads() inside if (tid < stride): some threads never reach it",
     "the barrier outside the if", "barrier"},
    {"stride_never_halves", 3, "the loop never halves its stride: it never ends",
     "stride /= 2 in the loop", "hang"},
    {"reads_past_shared_memory", 3,
     "the stride starts at blockDim.x: the first level reads one block past the array",
     "start at blockDim.x / 2", "out-of-range"},
    {"never_writes_output", 3, "the store waits for stride == 0, which the loop never reaches",
     "store partial[0] after the loop", "never-written"},
    {"dropped_block", 3,
     "the grid is count / per_block, rounded down: the last, partial block never runs",
     "round up: (count + per_block - 1) / per_block", "lost-input"},
    {"volatile_tail", 5,
     "Harris's 2007 warp tail: volatile, no __syncwarp, lanes assumed in lock-step",
     "lesson 05's tail: read, __syncwarp, write, __syncwarp", "race"},
    {"missing_syncwarp", 5,
     "lesson 05's tail without the __syncwarp between a level's reads and its writes",
     "__syncwarp before the write as well as after it", "race"},
    {"missing_fence", 12,
     "lesson 12's last-block finish without its __threadfence() calls: the relaxed ticket orders "
     "nothing",
     "__threadfence() between the partial's store and the ticket, and after the last ticket",
     "race"},
};
inline constexpr unsigned count = sizeof catalogue / sizeof catalogue[0];

// The bug of that name, or null.
constexpr const Bug* find(std::string_view name) {
  for (const Bug& b : catalogue)
    if (b.name == name) return &b;
  return nullptr;
}

// The broken kernels on backend B, one plan each, in catalogue order (variant = the bug's name).
// Their fixes, the graded kernels, are lesson_plans<17, B>(). Both defined at the end of plan.cu.
template <Backend B>
Plans broken_plans();

}  // namespace rl::bugs
