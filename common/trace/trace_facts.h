#pragma once
// Facts derived from a trace, per (launch, step): which threads worked, how many warps diverged,
// which shared-memory banks each warp touched and how badly they conflicted, and which lanes
// exchanged values through shuffles. The viewer's overlay and the lessons' READMEs use them.
#include <cstdint>
#include <utility>
#include <vector>

#include "common/trace/trace_model.h"

namespace rl {

inline constexpr int kWarpSize = 32;
inline constexpr int kSharedBanks = 32;

// 4-byte words: consecutive words fall in consecutive banks.
inline int bank_of(std::int64_t word_index) { return static_cast<int>(word_index % kSharedBanks); }

// One warp-wide shared-memory access: the k-th access of each lane to one operand (dst or src) of
// one instruction (source line and kind) in one step.
struct WarpAccess {
  int block = 0;
  int warp = 0;
  int line = 0;
  EventKind kind = EventKind::load;
  bool dst = true;                      // the dst operand; false: the src operand
  std::vector<std::int64_t> addresses;  // one per participating lane
  std::vector<int> banks;               // bank_of(addresses[i])
  int conflict_ways = 1;                // max distinct addresses in one bank (1: no conflict)
};

struct WarpShuffles {
  int block = 0;
  int warp = 0;
  std::vector<std::pair<int, int>> pairs;  // (dst lane, src lane)
};

struct StepFacts {
  int launch = 0;
  int step = 0;
  int active_threads = 0;   // distinct (block, thread) with a load/combine/shuffle this step
  int active_warps = 0;     // warps with at least one active thread
  int divergent_warps = 0;  // of those, warps where some lanes are active and some are not
  int worst_bank_conflict = 0;  // n-way of the worst warp access; 0 when no shared access
  int shared_accesses = 0;      // warp accesses to shared memory
  int conflicted_accesses = 0;  // of those, with a conflict of 2 ways or more
  std::int64_t shared_wavefronts = 0;  // sum over warp accesses of their n-way (serialised passes)
  int lines[4] = {0, 0, 0, 0};         // first distinct source lines of this step's events (0: none)
  std::vector<WarpAccess> accesses;
  std::vector<WarpShuffles> shuffles;
};

struct Totals {
  std::int64_t active_thread_steps = 0;
  std::int64_t active_warp_steps = 0;
  std::int64_t divergent_warp_steps = 0;
  int worst_bank_conflict = 0;
  std::int64_t shared_accesses = 0;
  std::int64_t conflicted_accesses = 0;
  std::int64_t shared_wavefronts = 0;
  std::int64_t shuffles = 0;

  void add(const StepFacts& s);
};

struct TraceFacts {
  std::vector<StepFacts> steps;  // ordered by (launch, step); only steps with events
  std::vector<Totals> launches;  // one per launch
  Totals total;

  // The facts of (launch, step), or nullptr when that step has no events.
  const StepFacts* find(int launch, int step) const;
};

TraceFacts compute_facts(const Trace& t);

}  // namespace rl
