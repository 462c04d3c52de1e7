#include "lessons/03_sequential_addressing/questions.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/grid_size.h"
#include "common/host/cli.h"
#include "common/host/idea.h"
#include "common/host/results.h"

namespace rl::block_sizes {
namespace {

constexpr unsigned block_sizes[] = {64, 128, 256, 512, 1024};
constexpr std::uint64_t question_n = std::uint64_t{1} << 24;
// The five runs of question 3, measured in one session on the course's H100.
const char* const measured_file = "results/h100-block-sizes-2p24.json";
// Two times closer than this are a tie: either order answers.
constexpr double tie = 0.02;

// The grid of every launch plan.cu makes for question_n at this block size, first to last: its
// passes (tree_passes, as plan.cu walks them).
std::string grids(unsigned block) {
  std::vector<float> scratch(tree_scratch_bytes(question_n, block) / sizeof(float) + 1), io(2);
  ReduceCall call{io.data(), io.data() + 1, question_n, block, scratch.data(), {}, nullptr};
  std::string text;
  for (const Pass& pass : tree_passes(call, block))
    text += (text.empty() ? "" : ", ") + std::to_string(pass.blocks);
  return text;
}

// One block of the course's kernel (the solution, whatever this build compiled), as its committed
// trace at n = block shows it level by level.
IdeaFigures one_block(unsigned block) {
  return committed_trace_figures("traces/questions/03_sequential_addressing.b" +
                                 std::to_string(block) + ".n" + std::to_string(block) +
                                 ".sim.json");
}

std::string barriers(unsigned block) {
  int count = 0;
  for (const IdeaLevel& l : one_block(block).levels) count += l.barriers;
  return std::to_string(count);
}

std::string warp_levels(unsigned block) {
  int count = 0;
  for (const IdeaLevel& l : one_block(block).levels) count += l.adds > 0 && l.threads >= 32;
  return std::to_string(count);
}

// block -> median ms, from the committed run.
std::map<unsigned, double> measured() {
  const nlohmann::json doc = committed_json(measured_file, {"runs"});
  std::map<unsigned, double> ms;
  for (const auto& r : doc["runs"])
    if (r.value("lesson", 0) == 3 && r.value("variant", "") == "" &&
        r.value("n", std::uint64_t{0}) == question_n)
      ms[r["block"].get<unsigned>()] = r["time"]["median_ms"].get<double>();
  for (const unsigned b : block_sizes)
    if (!ms.count(b))
      throw UsageError(committed_asset_path(measured_file) + " has no run at block " +
                       std::to_string(b));
  return ms;
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const unsigned b : block_sizes)
    e.questions.push_back(
        {"grids_b" + std::to_string(b),
         "Each launch leaves one partial per block, and the next launch reduces those partials; "
         "the last launch is the one with a single block.",
         [b] { return grids(b); },
         {}});
  for (const unsigned b : block_sizes)
    e.questions.push_back(
        {"barriers_b" + std::to_string(b),
         "Count every __syncthreads a thread of the block passes, the one after "
         "the load included: how many times does the loop run at this block size?",
         [b] { return barriers(b); },
         {}});
  for (const unsigned b : block_sizes)
    e.questions.push_back({"warp_levels_b" + std::to_string(b),
                           "At each level, which threads add, and do they still fill a warp?",
                           [b] { return warp_levels(b); },
                           {}});
  e.questions.push_back({"order_2p24",
                         "Weigh the launches and levels above against what a small block leaves "
                         "idle: how many blocks can an SM hold at once, and how much of each "
                         "block's time is its tree? Times within 2% of each other may come in "
                         "either order.",
                         [] { return fastest_first(named(measured())); },
                         [](const std::string& given, const std::string&) {
                           return same_order(given, named(measured()), tie);
                         }});
  return e;
}

}  // namespace rl::block_sizes
