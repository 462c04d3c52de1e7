#include "lessons/02_interleaved_strided/questions.h"

#include <string>

#include "common/host/cli.h"
#include "common/host/idea.h"

namespace rl::bank_conflicts {
namespace {

// The course's kernel (the solution, whatever this build compiled), traced on the simulator with
// 256-thread blocks: block 0's levels, stride 1 at level 1, 2 at level 2, ...
const char* const committed_trace = "traces/02_interleaved_strided.b256.sim.json";

// The worst n-way bank conflict of a warp's shared-memory access at the level whose pairs lie
// `stride` apart.
std::string worst_conflict(unsigned stride) {
  unsigned level_stride = 1;
  for (const IdeaLevel& l : committed_trace_figures(committed_trace).levels) {
    if (l.adds == 0) continue;  // the load
    if (level_stride == stride) return std::to_string(l.conflict);
    level_stride *= 2;
  }
  throw UsageError("the committed trace has no level at stride " + std::to_string(stride));
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (unsigned stride = 1; stride <= 128; stride *= 2)
    e.questions.push_back({"conflict_stride" + std::to_string(stride),
                           "Lane t of a warp works on word 2 * stride * t while that is below the "
                           "block: list the words of the lanes that work, take each modulo 32, and "
                           "count the words that share the busiest bank.",
                           [stride] { return worst_conflict(stride); },
                           {}});
  return e;
}

}  // namespace rl::bank_conflicts
