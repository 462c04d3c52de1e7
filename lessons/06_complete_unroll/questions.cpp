#include "lessons/06_complete_unroll/questions.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "common/host/answers.h"
#include "common/host/cli.h"
#include "common/host/idea.h"
#include "common/host/profile_record.h"
#include "common/host/results.h"

namespace rl::compile_time_levels {
namespace {

constexpr unsigned level_blocks[] = {32, 64, 512, 1024};
constexpr unsigned tail_blocks[] = {32, 64};
// The ladder's run on the course's H100: every size from 2^10 to 2^28, each lesson at 256 threads.
const char* const measured_file = "results/h100-bench.json";

// The course's kernel (the solution, whatever this build compiled), traced on the simulator with
// one full block of `block` threads, Block = block.
IdeaFigures one_block(unsigned block) {
  const std::string b = std::to_string(block);
  return committed_trace_figures("traces/questions/06_complete_unroll.b" + b + ".n" + b +
                                 ".sim.json");
}

// The block-wide levels the compiler kept, by the threads that add at each: the levels a
// __syncthreads closes, but for the first, which closes the load.
std::string block_levels(unsigned block) {
  std::string text;
  bool load = true;
  for (const IdeaLevel& l : one_block(block).levels) {
    if (l.barriers == 0) continue;
    if (!load) text += (text.empty() ? "" : ", ") + std::to_string(l.threads);
    load = false;
  }
  return text.empty() ? "none" : text;
}

// The additions of warp_tail_in_shared's six levels: those after the last level a __syncthreads
// closes.
std::string tail_adds(unsigned block) { return std::to_string(last_warp_adds(one_block(block))); }

struct Range {
  double min = 0, max = 0;
};

// n -> lesson -> the range of its samples (ms), for lessons 05 and 06's own kernels.
std::map<std::uint64_t, std::map<int, Range>> measured() {
  const nlohmann::json doc = committed_json(measured_file, {"runs"});
  std::map<std::uint64_t, std::map<int, Range>> ranges;
  for (const auto& r : doc["runs"]) {
    const int lesson = r.value("lesson", 0);
    if ((lesson == 5 || lesson == 6) && r.value("variant", "") == "")
      ranges[r["n"].get<std::uint64_t>()][lesson] = {r["time"]["min_ms"].get<double>(),
                                                     r["time"]["max_ms"].get<double>()};
  }
  return ranges;
}

// The smallest measured n from which lesson 06's slowest sample is faster than lesson 05's
// fastest at that size and every larger one.
std::uint64_t ahead_from() {
  std::uint64_t from = 0;
  for (const auto& [n, lessons] : measured()) {
    if (!lessons.count(5) || !lessons.count(6)) continue;
    const bool ahead = lessons.at(6).max < lessons.at(5).min;
    if (!ahead)
      from = 0;
    else if (from == 0)
      from = n;
  }
  if (from == 0)
    throw UsageError(committed_asset_path(measured_file) +
                     ": lesson 06 is not ahead of lesson 05 at its largest size");
  return from;
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const unsigned b : level_blocks)
    e.questions.push_back(
        {"levels_b" + std::to_string(b),
         "A level `if constexpr (Block >= 2 * s)` keeps its code exactly where the block has at "
         "least 2 * s threads, and only the levels s = 512, 256, 128 and 64 are written out.",
         [b] { return block_levels(b); },
         {}});
  for (const unsigned b : tail_blocks)
    e.questions.push_back(
        {"tail_adds_b" + std::to_string(b),
         "warp_tail_in_shared runs all 32 lanes through strides 32, 16, ..., 1, but a lane adds "
         "only where tid + stride < block: count the lanes that pass that test at each stride.",
         [b] { return tail_adds(b); },
         {}});
  e.questions.push_back(
      {"ahead_from",
       "Below some size a call's time is mostly its launches, the same for both lessons; the "
       "instructions lesson 06 saves show only once each launch's own work outweighs them. One "
       "power of two either side is accepted.",
       [] { return size_label(ahead_from()); }, size_within(1)});
  return e;
}

}  // namespace rl::compile_time_levels
