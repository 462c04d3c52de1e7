#include "lessons/10_multi_block_two_kernel/questions.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/grid_size.h"
#include "common/host/answers.h"
#include "common/host/cli.h"
#include "common/host/profile_record.h"
#include "common/host/results.h"

namespace rl::second_step {
namespace {

constexpr unsigned block = 256;  // the plan's kernel 1 at the default block size
// Kernel 2's launches in plan.cu: one block of finish_block threads, or one warp.
constexpr unsigned block_finish_threads = 1024, warp_finish_threads = 32;
// The course's H100 runs of every rung at N = 2^10 ... 2^28.
const char* const bench_file = "results/h100-bench.json";

// The blocks of kernel 1 at n, as plan.cu sizes them (grid_for): read through the plan's scratch,
// which holds kernel 1's partials, one float a block. The simulator's plan, on the shape the
// simulator gives itself (the H100's: 132 SMs of 2048 threads); the H100's occupancy API gives this
// kernel the same 8 blocks of 256 an SM (README.md), so the grids are the H100's.
std::uint64_t first_grid(std::uint64_t n) {
  const Plans plans = lesson_plans<10, Backend::sim>();
  return plans.front().scratch_bytes(n, block, DeviceShape{}) / sizeof(float);
}

// The blocks of each launch of the two-kernel plan, first to last.
std::string grids(std::uint64_t n) { return std::to_string(first_grid(n)) + ", 1"; }

// The most partials one thread of kernel 2 adds: thread 0's, partials 0, threads, 2 * threads, ...
std::string most_partials(std::uint64_t n, unsigned threads) {
  return std::to_string(ceil_div(first_grid(n), std::uint64_t{threads}));
}

// n -> whether the committed run of the variant was launch-bound (lesson 00: the GPU busy under
// 80% of the call's time).
std::map<std::uint64_t, bool> launch_bound(const std::string& variant) {
  const nlohmann::json doc = committed_json(bench_file, {"runs"});
  std::map<std::uint64_t, bool> bound;
  for (const auto& r : doc["runs"])
    if (r.value("lesson", 0) == 10 && r.value("variant", "") == variant)
      bound[r["n"].get<std::uint64_t>()] = r["launch_bound"].get<bool>();
  if (bound.empty())
    throw UsageError(committed_asset_path(bench_file) + " has no run of lesson 10 '" + variant +
                     "'");
  return bound;
}

// The smallest N from which on every committed run of the variant keeps the GPU busy.
std::uint64_t unbound_from(const std::string& variant) {
  std::uint64_t from = 0;
  for (const auto& [n, bound] : launch_bound(variant)) {
    if (bound) from = 0;  // launch-bound again further on: start after it
    if (!bound && from == 0) from = n;
  }
  if (from == 0)
    throw UsageError("lesson 10 '" + variant + "' is launch-bound at every committed size");
  return from;
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const int k : {16, 19})
    e.questions.push_back({"grids_2p" + std::to_string(k),
                           "Kernel 1's grid is as many blocks as the SMs hold at once, unless the "
                           "input cannot give every thread enough floats: how many does plan.cu "
                           "ask of each thread, and which of the two limits binds here?",
                           [k] { return grids(std::uint64_t{1} << k); },
                           {}});
  e.questions.push_back({"most_partials_block_finish_2p24",
                         "Kernel 2 reads one partial for every block of kernel 1: how many blocks "
                         "does kernel 1 have at this size, and how many of them fall to thread 0?",
                         [] { return most_partials(std::uint64_t{1} << 24, block_finish_threads); },
                         {}});
  e.questions.push_back({"most_partials_warp_finish_2p24",
                         "The same partials, dealt out over the 32 lanes of one warp: how many "
                         "land on lane 0?",
                         [] { return most_partials(std::uint64_t{1} << 24, warp_finish_threads); },
                         {}});
  for (const std::string variant : {"", "host_finish"})
    e.questions.push_back(
        {variant.empty() ? "unbound_from_two_kernels" : "unbound_from_host_finish",
         "The GPU must be busy for 80% of the call: reading the 4N bytes at the streaming ceiling "
         "must take four times what the call spends outside its kernels. Estimate that fixed "
         "cost of this variant from the timeline (gaps, copies, the first API call).",
         [variant] { return size_label(unbound_from(variant)); },
         // the runs are a power of two apart, and one step is within what a prediction can tell
         size_within(1)});
  return e;
}

}  // namespace rl::second_step
