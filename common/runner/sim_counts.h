#pragma once
// The ladder on the simulator, made to teach: what the simulator can count for each rung (the
// launches, the elements each thread adds before its tree, the longest chain of additions, and, from
// a trace, the barriers, shared-memory accesses, bank-conflict passes and working lanes per block),
// beside the time and % of ceiling the course's GPU measured for the same rung, from the committed
// results file. A simulated time is a CPU's and says nothing of a GPU; these counts do.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/host/session.h"

namespace rl {

struct RungCounts {
  unsigned launches = 0;            // kernel launches of one reduction at the ladder's n
  double elements_per_thread = 0;   // n over the first launch's threads
  std::uint64_t longest_chain = 0;  // additions from one input to the total (Plan::depth)
  std::uint64_t traced_n = 0;       // the size the trace below was recorded at
  double barriers_per_block = -1;   // -1: not traced (lesson 16's libraries)
  double shared_per_block = -1;     // warp-wide shared-memory accesses a block of launch 0 makes
  double passes_per_access = -1;    // passes a warp access needs: 1 without bank conflicts
  double lanes_per_warp_step = -1;  // working lanes of a warp at a level of its tree, of 32
};

// Counts one rung: a reduction at the session's n with every launch observed, and a trace of the
// same plan at min(n, traced_n) on a session of its own.
RungCounts count_rung(Device& device, const RunOptions& options, Session& session, const Plan& plan,
                      unsigned block, std::uint64_t traced_n);

// What a results file measured for one rung: its median time and % of ceiling.
struct MeasuredRung {
  double median_ms = 0;
  double pct_of_ceiling = -1;
};

// What a results file measured of the two yardsticks at one size: the streaming-read ceiling and
// CUB's sum on the same input (lesson 00).
struct MeasuredYardsticks {
  double ceiling_ms = 0, ceiling_gbps = 0;
  double cub_ms = 0;            // 0 where the file has no CUB time at this size
  double theoretical_gbps = 0;  // the device's memory clock x bus width x 2, 0 where not recorded
};

// The course's committed GPU results (assets/results/h100-bench.json), from the source tree's root
// where the program runs there, else by its path in the source tree this build came from.
std::string measured_ladder_path();

// A committed results file, for the rows of the simulated ladder: the device, the date, and each
// (lesson, variant, n, block)'s figures.
class MeasuredLadder {
 public:
  // nullopt (and `why`) when the file cannot be read or is not a results file.
  static std::optional<MeasuredLadder> load(const std::string& path, std::string& why);
  std::optional<MeasuredRung> find(int lesson, std::string_view variant, std::uint64_t n,
                                   unsigned block) const;
  std::optional<MeasuredYardsticks> yardsticks(std::uint64_t n) const;
  std::string device, date, path;

 private:
  struct Row {
    int lesson;
    std::string variant;
    std::uint64_t n;
    unsigned block;
    MeasuredRung m;
  };
  std::vector<Row> rows_;
  std::vector<std::pair<std::uint64_t, MeasuredYardsticks>> yardsticks_;
};

// The simulated ladder's table: lesson | kernel | block | launches | elements/thread | longest chain
// | barriers/block | shared accesses/block | passes/access | lanes/warp step | GPU time | % of ceiling
// | verified; the measured file's device and date in the line above it.
void print_simulated_ladder(std::ostream& out, const std::vector<CaseResult>& results,
                            const std::vector<RungCounts>& counts,
                            const std::optional<MeasuredLadder>& measured, std::uint64_t n);

}  // namespace rl
