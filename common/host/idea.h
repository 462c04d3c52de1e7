#pragma once
// A lesson's idea, checked in a trace of the student's kernel. Right totals say a kernel adds every
// input; they do not say it adds them the way its lesson teaches. The simulator's trace does: which
// threads worked at each level of the tree, which shared-memory banks a warp hit, where the block
// waited, which values moved through shuffles. In two halves, like lesson 15's replay
// (grading.h): idea_figures, in the submission's process, records one trace of the plan and keeps,
// for the first block of its first launch, one line of figures per level; idea_judged, host code
// only (the trusted grader's too), says in one line which level and source line miss the idea, or
// nothing. The checks a lesson asks for are its Plan's `idea` (plan.h).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/host/device.h"
#include "common/host/plan.h"

namespace rl {

struct Trace;

// One level (trace_model.h's data-flow level) of one block's tree.
struct IdeaLevel {
  int level = 0;
  int line = 0;           // the first source line of the level's work
  int threads = 0;        // threads of the block that loaded, added or shuffled at this level
  int warps = 0;          // warps with at least one of those threads
  int divergent = 0;      // warps in which some of those threads' lanes work and some do not
  int adds = 0;           // additions (shuffles and atomics included)
  int conflict = 1;       // the worst n-way bank conflict of a warp's shared-memory access
  int conflict_line = 0;  // where it is (0: no conflict)
  int shared = 0;         // warp-wide shared-memory accesses
  int shared_line = 0;    // the first of them
  int shuffles = 0;       // values moved between lanes
  int barriers = 0;       // __syncthreads the block passed closing this level
  int barrier_line = 0;   // the first of them
  friend bool operator==(const IdeaLevel&, const IdeaLevel&) = default;
};

struct IdeaFigures {
  unsigned block = 0;                // the traced block size
  unsigned grid = 0;                 // the first launch's blocks
  std::int64_t farthest_input = -1;  // the largest input index block 0 read (-1: none)
  // The __threadfence() calls of the whole recorded run, every block's, and the lowest line among
  // them (the simulator counts them: sim::fences_called; a committed trace has none).
  std::uint64_t fences = 0;
  int fence_line = 0;
  // The loads (__ldg, __ldcg) thread 0 of block 0 issued before its first addition, counted by the
  // simulator while it recorded (sim::loads_before_first_add); -1: it added nothing, or a committed
  // trace, which does not say.
  std::int64_t loads_before_add = -1;
  // The times the run's blocks mapped another block's shared memory to access it
  // (cluster.map_shared_rank naming another rank), counted by the simulator while it recorded
  // (sim::remote_shared_maps); 0 in a committed trace.
  std::uint64_t remote_maps = 0;
  std::vector<IdeaLevel> levels;
  friend bool operator==(const IdeaFigures&, const IdeaFigures&) = default;
};

// The additions of a block's last warp: those of the levels after the last one a __syncthreads
// closes (the questions of exercises 05 and 06 count them).
int last_warp_adds(const IdeaFigures& f);

// The figures of block 0 of a trace's first launch, or of its last (its block and grid sizes from
// that launch).
IdeaFigures idea_figures_of(const Trace& t, bool last_launch = false);

// Records the plan's trace on the simulator at n with `block`-thread blocks (the input drawn from
// base_seed) and condenses it: the submission's half, at idea_n and 256.
inline constexpr std::uint64_t idea_n = 2048;
IdeaFigures idea_figures(Device& device, const Plan& plan, std::uint64_t base_seed,
                         std::uint64_t n = idea_n, unsigned block = 256);

// The figures of a committed trace of the course's own kernel (assets/RELATIVE, as
// committed_asset_path finds it: results.h); a UsageError naming the file where it cannot be read.
IdeaFigures committed_trace_figures(const std::string& relative);

// Why the figures miss the plan's idea, in one line naming the level and the line, or nullopt.
std::optional<std::string> idea_judged(const IdeaFigures& f, const Idea& idea);

// The figures as the text of a handed-back `idea` line (grade_record.h) and back; nullopt when the
// text is out of format.
std::string to_text(const IdeaFigures& f);
std::optional<IdeaFigures> parse_idea_figures(std::string_view text);

// What the grade checks of an idea, in words ("a tree of ceil(log2(block)) levels; whole warps;
// ..."), for the grader's progress line and the exercises.
std::string describe(const Idea& idea);

}  // namespace rl
