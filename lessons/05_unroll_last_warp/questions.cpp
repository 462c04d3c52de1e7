#include "lessons/05_unroll_last_warp/questions.h"

#include <fstream>
#include <sstream>
#include <string>

#include "common/host/cli.h"
#include "common/host/idea.h"
#include "common/host/results.h"
#include "common/trace/trace_loader.h"

namespace rl::warp_waits {
namespace {

constexpr unsigned block_sizes[] = {32, 64, 128, 512};

// The course's kernel (the solution, whatever this build compiled), traced on the simulator with
// one full block: the lesson's own tail, or the narrowing variant's (at 256 threads).
std::string committed_trace(unsigned block, bool narrowing) {
  const std::string b = std::to_string(block);
  return std::string("traces/questions/05_unroll_last_warp.") + (narrowing ? "narrowing." : "") +
         "b" + b + ".n" + b + ".sim.json";
}

std::string barriers(unsigned block) {
  int count = 0;
  for (const IdeaLevel& l : committed_trace_figures(committed_trace(block, false)).levels)
    count += l.barriers;
  return std::to_string(count);
}

// The additions of the last warp's levels, in the lesson's own tail or the narrowing one.
std::string tail_adds(bool narrowing) {
  return std::to_string(last_warp_adds(committed_trace_figures(committed_trace(256, narrowing))));
}

// The __syncwarp calls lane 0 of block 0 passes at 256 threads: the trace's warp barriers of warp 0
// whose mask names lane 0 (idea.h's figures count block barriers only).
std::string syncwarps(bool narrowing) {
  const std::string path = committed_asset_path(committed_trace(256, narrowing));
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read the course's committed trace " + path);
  std::stringstream text;
  text << in.rdbuf();
  int count = 0;
  for (const Event& e : parse_trace(text.str(), path).events)
    count += e.kind == EventKind::warp_barrier && e.launch == 0 && e.block == 0 && e.thread == 0 &&
             (e.mask & 1u) != 0;
  return std::to_string(count);
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const unsigned b : block_sizes)
    e.questions.push_back(
        {"barriers_b" + std::to_string(b),
         "Count the __syncthreads after the load, then the block loop's levels: it runs while "
         "the stride is above 32, starting from half the block.",
         [b] { return barriers(b); },
         {}});
  for (const bool narrowing : {false, true})
    e.questions.push_back(
        {narrowing ? "syncwarps_narrowing" : "syncwarps_own",
         "Count the __syncwarp calls in one level of the tail, then the levels lane 0 goes "
         "through: strides 32 down to 1, and lane 0 is below every stride.",
         [narrowing] { return syncwarps(narrowing); },
         {}});
  for (const bool narrowing : {false, true})
    e.questions.push_back(
        {narrowing ? "tail_adds_narrowing" : "tail_adds_own",
         "At each of the six levels, which lanes pass their test and add? The lesson's own tail "
         "tests only that the slot lies inside the block; the narrowing one drops every lane at "
         "or above the stride.",
         [narrowing] { return tail_adds(narrowing); },
         {}});
  return e;
}

}  // namespace rl::warp_waits
