#include "lessons/09_block_two_stage/questions.h"

#include <set>
#include <string>

#include "common/host/cli.h"
#include "common/host/idea.h"
#include "common/host/results.h"
#include "common/trace/trace_facts.h"
#include "common/trace/trace_loader.h"

namespace rl::block_reduce {
namespace {

// The committed trace of one block of the course's kernel (the solution, whatever this build
// compiled) at n = block: its own two stages, or the everyone variant's.
std::string trace_file(const std::string& variant, unsigned block) {
  return "traces/questions/09_block_two_stage." + (variant.empty() ? "" : variant + ".") + "b" +
         std::to_string(block) + ".n" + std::to_string(block) + ".sim.json";
}

// Values moved between lanes in the block: one a lane each time its warp shuffles.
std::string shuffles(const std::string& variant, unsigned block) {
  int count = 0;
  for (const IdeaLevel& l : committed_trace_figures(trace_file(variant, block)).levels)
    count += l.shuffles;
  return std::to_string(count);
}

// The warps of block 0 that read a word of shared memory: every write is a warp's total, so these
// are the warps that take the totals back after the barrier.
std::string reader_warps(const std::string& variant, unsigned block) {
  const std::string path = committed_asset_path(trace_file(variant, block));
  Trace t;
  try {
    t = load_trace(path);
  } catch (const std::exception& e) {
    throw UsageError(std::string("cannot read the course's committed trace: ") + e.what());
  }
  std::set<int> warps;
  for (const LevelFacts& level : compute_facts(t).levels)
    for (const WarpAccess& a : level.accesses)
      if (a.block == 0 && a.side != AccessSide::dst) warps.insert(a.warp);
  return std::to_string(warps.size());
}

// The __syncthreads a thread of the block passes.
std::string barriers(unsigned block) {
  int count = 0;
  for (const IdeaLevel& l : committed_trace_figures(trace_file("", block)).levels)
    count += l.barriers;
  return std::to_string(count);
}

const char* const shuffles_nudge =
    "Stage 1: how many warps shuffle, five times each, 32 lanes at a time? Stage 2: the same "
    "count again, for the warps that run it.";

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  e.questions.push_back({"shuffles_own_b32", shuffles_nudge, [] { return shuffles("", 32); }, {}});
  for (const unsigned b : {64u, 256u}) {
    e.questions.push_back({"shuffles_own_b" + std::to_string(b),
                           shuffles_nudge,
                           [b] { return shuffles("", b); },
                           {}});
    e.questions.push_back({"shuffles_everyone_b" + std::to_string(b),
                           shuffles_nudge,
                           [b] { return shuffles("everyone", b); },
                           {}});
  }
  e.questions.push_back({"readers_own_b256",
                         "After the barrier, which warps go on to add the warps' totals?",
                         [] { return reader_warps("", 256); },
                         {}});
  e.questions.push_back({"readers_everyone_b256",
                         "After the barrier, which warps must end with the block's total, and "
                         "where can each of them find the warps' totals?",
                         [] { return reader_warps("everyone", 256); },
                         {}});
  e.questions.push_back({"barriers_b32",
                         "Which of the kernel's code does `if constexpr (Block > 32)` leave in a "
                         "block of one warp?",
                         [] { return barriers(32); },
                         {}});
  return e;
}

}  // namespace rl::block_reduce
