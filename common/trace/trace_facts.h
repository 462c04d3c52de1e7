#pragma once
// Facts derived from a trace, per (launch, level) (levels as trace_model.h derives them): which
// threads worked, how many warps diverged, which shared-memory banks each warp touched and how
// badly they conflicted, which lanes exchanged values through shuffles, and which source lines did
// it. The viewer's overlay and the lessons' READMEs use them.
#include <cstdint>
#include <utility>
#include <vector>

#include "common/trace/trace_model.h"

namespace rl {

inline constexpr int kWarpSize = 32;
inline constexpr int kSharedBanks = 32;

// 4-byte words: consecutive words fall in consecutive banks.
inline int bank_of(std::int64_t word_index) { return static_cast<int>(word_index % kSharedBanks); }

// Which part of an event touched shared memory: its destination or one of its operands.
enum class AccessSide : std::uint8_t { dst, a, b };

// One warp-wide shared-memory access: the k-th access of each lane to one side (dst, a or b) of
// one instruction (source line and kind) in one level.
struct WarpAccess {
  int block = 0;
  int warp = 0;
  int line = 0;
  EventKind kind = EventKind::load;
  AccessSide side = AccessSide::dst;
  std::vector<std::int64_t> addresses;  // one per participating lane
  std::vector<int> banks;               // bank_of(addresses[i])
  int conflict_ways = 1;                // max distinct addresses in one bank (1: no conflict)
};

struct WarpShuffles {
  int block = 0;
  int warp = 0;
  // (dst lane, src lane). The source lane is the thread of the event a shuffle's b operand names;
  // for a b operand read from memory, the lane of the same warp that used that location as its own
  // a operand (the lane that held it), nearest in event order; -1 when the trace does not say.
  std::vector<std::pair<int, int>> pairs;
};

struct LevelFacts {
  int launch = 0;
  int level = 0;
  int active_threads = 0;   // distinct (block, thread) with a load/combine/shuffle at this level
  int active_warps = 0;     // warps with at least one active thread
  int divergent_warps = 0;  // of those, warps where some lanes are active and some are not
  int worst_bank_conflict = 0;         // n-way of the worst warp access; 0 when no shared access
  int shared_accesses = 0;             // warp accesses to shared memory
  int conflicted_accesses = 0;         // of those, with a conflict of 2 ways or more
  std::int64_t shared_wavefronts = 0;  // sum over warp accesses of their n-way (serialised passes)
  // the distinct source lines of this level's events, barriers included, first seen first
  std::vector<int> lines;
  std::vector<WarpAccess> accesses;
  std::vector<WarpShuffles> shuffles;
};

struct Totals {
  std::int64_t active_thread_levels = 0;  // sums over levels
  std::int64_t active_warp_levels = 0;
  std::int64_t divergent_warp_levels = 0;
  int worst_bank_conflict = 0;
  std::int64_t shared_accesses = 0;
  std::int64_t conflicted_accesses = 0;
  std::int64_t shared_wavefronts = 0;
  std::int64_t shuffles = 0;

  void add(const LevelFacts& s);
};

struct TraceFacts {
  std::vector<LevelFacts> levels;  // ordered by (launch, level); only levels with events
  std::vector<Totals> launches;    // one per launch
  Totals total;

  // The facts of (launch, level), or nullptr when that launch has no events at that level.
  const LevelFacts* find(int launch, int level) const;
};

TraceFacts compute_facts(const Trace& t);

}  // namespace rl
