#include "lessons/07_multiple_elements_per_thread/questions.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/grid_size.h"
#include "common/host/cli.h"
#include "common/host/results.h"

namespace rl::grid_sizing {
namespace {

constexpr unsigned block = 256;
// plan.cu's items_per_thread: the grid never gives a thread fewer than this many inputs. Written
// here rather than read from plan.cu, which the exercise's task has the student edit.
constexpr unsigned items_per_thread = 2;
// The course's H100: its SM count and how many of this kernel's blocks an SM holds, as Nsight
// Compute reported them for the first launch at 2^24.
const char* const profile_file = "profiles/h100-profile.json";
// The sweep behind the README's table: a fixed number of inputs a thread, and lesson 07's grid.
const char* const sweep_file = "results/sweep/h100-sweep.json";
// Two times closer than this are a tie: either order answers.
constexpr double tie = 0.02;

// The H100's shape and what one SM holds of lesson 07's kernel at 256 threads: the smallest of
// the limits the profile gives for its first launch at 2^24.
struct Hardware {
  DeviceShape shape;
  KernelResources resources;
};

Hardware h100() {
  const nlohmann::json doc = committed_json(profile_file);
  Hardware h;
  h.shape.sm_count = doc.at("device").at("sm_count").get<unsigned>();
  for (const auto& k : doc.at("kernels"))
    if (k.value("lesson", 0) == 7 && k.value("variant", "") == "" &&
        k.value("n", std::uint64_t{0}) == (std::uint64_t{1} << 24) && k.value("launch", -1) == 0 &&
        k.value("block", 0u) == block) {
      unsigned fewest = ~0u;
      for (const auto& [limit, blocks] : k.at("counters").at("blocks_per_sm_limit").items())
        fewest = std::min(fewest, blocks.get<unsigned>());
      h.resources.blocks_per_sm = fewest;
      return h;
    }
  throw UsageError(committed_asset_path(profile_file) +
                   " has no first launch of lesson 07 at 2^24");
}

// The grid of every launch plan.cu makes for n on the H100, first to last (persistent_grid and
// persistent_passes, as plan.cu calls them).
std::string grids(std::uint64_t n) {
  const Hardware h = h100();
  const unsigned grid = persistent_grid(n, block, items_per_thread, h.resources, h.shape);
  float io[2] = {};
  ReduceCall call{io, io + 1, n, block, nullptr, {}, nullptr};
  std::string text;
  for (const Pass& pass : persistent_passes(call, grid))
    text += (text.empty() ? "" : ", ") + std::to_string(pass.blocks);
  return text;
}

// The fewest and the most inputs one thread of the first launch reads at n: the kernel's loop
// takes in[i] and in[i + Block] each step, i starting at its block's 2 * Block floats and moving
// on by the whole grid's, 2 * Block * grid.
std::string inputs(std::uint64_t n) {
  const Hardware h = h100();
  const std::uint64_t grid = persistent_grid(n, block, items_per_thread, h.resources, h.shape);
  const std::uint64_t stride = 2 * std::uint64_t{block} * grid;
  // the steps whose index, starting at `first`, is below n
  const auto steps = [&](std::uint64_t first) {
    return first < n ? ceil_div(n - first, stride) : std::uint64_t{0};
  };
  std::uint64_t fewest = ~std::uint64_t{0}, most = 0;
  for (std::uint64_t b = 0; b < grid; ++b)
    for (std::uint64_t t = 0; t < block; ++t) {
      const std::uint64_t first = b * 2 * block + t;
      const std::uint64_t count = steps(first) + steps(first + block);
      fewest = std::min(fewest, count);
      most = std::max(most, count);
    }
  return std::to_string(fewest) + ", " + std::to_string(most);
}

// The four grids of the exercise's table at n, in blocks: one a SM, the persistent grid, four
// times it, and one block per 2 * Block inputs (lesson 04's).
std::vector<std::uint64_t> grid_choices(std::uint64_t n) {
  const Hardware h = h100();
  const std::uint64_t resident = std::uint64_t{h.shape.sm_count} * h.resources.blocks_per_sm;
  return {h.shape.sm_count, resident, 4 * resident, ceil_div(n, 2 * std::uint64_t{block})};
}

// Grid -> the sweep's median time at n: the persistent grid is the sweep's row of lesson 07's
// own grid; any other grid the row whose inputs a thread is the power of two nearest n / (Block *
// grid) (on a log scale), which reads as many floats a thread.
std::map<std::uint64_t, double> measured(std::uint64_t n) {
  const nlohmann::json doc = committed_json(sweep_file);
  std::map<std::string, double> ms;  // variant -> median
  for (const auto& r : doc.at("runs"))
    if (r.value("lesson", 0) == 7 && r.value("n", std::uint64_t{0}) == n &&
        r.value("block", 0u) == block)
      ms[r.value("variant", "")] = r.at("time").at("median_ms").get<double>();
  const Hardware h = h100();
  const std::uint64_t resident = std::uint64_t{h.shape.sm_count} * h.resources.blocks_per_sm;
  std::map<std::uint64_t, double> by_grid;
  for (const std::uint64_t g : grid_choices(n)) {
    std::string row;
    if (g == resident) {
      row = "";
    } else {
      const double per_thread = static_cast<double>(n) / (double{block} * static_cast<double>(g));
      const auto log2 = static_cast<int>(std::lround(std::log2(std::max(per_thread, 1.0))));
      row = std::to_string(std::uint64_t{1} << log2) + "_per_thread";
    }
    if (!ms.count(row))
      throw UsageError(committed_asset_path(sweep_file) + " has no run '" + row + "' at n " +
                       std::to_string(n));
    by_grid[g] = ms.at(row);
  }
  return by_grid;
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const int log2 : {9, 19, 20}) {
    const std::uint64_t n = std::uint64_t{1} << log2;
    e.questions.push_back({"grids_2p" + std::to_string(log2),
                           "persistent_grid takes the smaller of what the SMs hold at once and "
                           "what the input can feed with two inputs a thread; one block alone "
                           "needs no second launch.",
                           [n] { return grids(n); },
                           {}});
  }
  for (const int log2 : {20, 24, 28}) {
    const std::uint64_t n = std::uint64_t{1} << log2;
    e.questions.push_back({"inputs_2p" + std::to_string(log2),
                           "Each step of the loop covers two inputs a thread and 2 * Block * grid "
                           "inputs in all: how many whole steps fit in N, and which blocks get one "
                           "step more from what is left?",
                           [n] { return inputs(n); },
                           {}});
  }
  for (const int log2 : {24, 28}) {
    const std::uint64_t n = std::uint64_t{1} << log2;
    e.questions.push_back(
        {"order_2p" + std::to_string(log2),
         "Turn each grid into inputs a thread, N / (256 * grid), and read the sweep's row with "
         "the nearest power of two (the shipped grid has a row of its own). Times within 2% "
         "of each other may come in either order.",
         [n] { return fastest_first(named(measured(n))); },
         [n](const std::string& given, const std::string&) {
           return same_order(given, named(measured(n)), tie);
         }});
  }
  return e;
}

}  // namespace rl::grid_sizing
