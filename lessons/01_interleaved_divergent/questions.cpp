#include "lessons/01_interleaved_divergent/questions.h"

#include <string>

#include "common/host/cli.h"
#include "common/host/idea.h"

namespace rl::idle_lanes {
namespace {

// The course's kernel (the solution, whatever this build compiled), traced on the simulator with
// 256-thread blocks: block 0's levels, stride 1 at level 1, 2 at level 2, ...
const char* const committed_trace = "traces/01_interleaved_divergent.b256.sim.json";

// The level of block 0 whose pairs lie `stride` apart.
IdeaLevel at_stride(unsigned stride) {
  unsigned level_stride = 1;
  for (const IdeaLevel& l : committed_trace_figures(committed_trace).levels) {
    if (l.adds == 0) continue;  // the load
    if (level_stride == stride) return l;
    level_stride *= 2;
  }
  throw UsageError("the committed trace has no level at stride " + std::to_string(stride));
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (unsigned stride = 1; stride <= 128; stride *= 2)
    e.questions.push_back({"adders_stride" + std::to_string(stride),
                           "At this stride the pairs start at the multiples of 2 * stride below "
                           "the block size: how many are there?",
                           [stride] { return std::to_string(at_stride(stride).threads); },
                           {}});
  for (unsigned stride = 1; stride <= 128; stride *= 2)
    e.questions.push_back({"warps_stride" + std::to_string(stride),
                           "Warp w holds threads 32w to 32w + 31: which warps hold at least one "
                           "multiple of 2 * stride?",
                           [stride] { return std::to_string(at_stride(stride).warps); },
                           {}});
  return e;
}

}  // namespace rl::idle_lanes
