#pragma once
// The overview strip: every launch as a row of tiles, one per block, lit by how many of the block's
// threads work at the current step, with the block in focus, the blocks holding a stale read and
// the block of the first difference from the other trace marked; and the focus block's warps, the
// window's among them. A launch of more blocks than tiles fit draws several blocks per tile (the
// busiest decides its light): the coarser level of detail that keeps a 200,000-event trace fast.
// Pure: no ImGui, unit-tested.
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "common/trace/trace_model.h"
#include "viewer/steps.h"

namespace rl::viewer {

inline constexpr float kMinTilePx = 3.f;  // a tile is at least this wide

struct OverviewTile {
  int first_block = 0, last_block = 0;  // inclusive
  float active = 0;  // the busiest block's share of its threads working at the current step (0..1)
  bool focus = false, stale = false, differs = false;
};

struct OverviewLaunch {
  int launch = 0;
  int grid = 1;
  int blocks_per_tile = 1;
  bool current = false;
  bool done = false;  // an earlier launch than the current step's
  std::vector<OverviewTile> tiles;
};

struct OverviewWarp {
  int warp = 0;
  int active = 0;  // lanes working at the current step
  int lanes = 32;
  bool in_window = false;
};

struct Overview {
  std::vector<OverviewLaunch> launches;
  std::vector<OverviewWarp> warps;  // of the focus block at the current step
};

// Marks that do not change while the trace plays: (launch, block) pairs.
struct OverviewMarks {
  std::set<std::pair<int, int>> stale;
  std::pair<int, int> differs{-1, -1};
};

// `width`: pixels for one launch's tiles. `active`: the focus block's threads
// (BlockFigure::active).
Overview build_overview(const Trace& t, const StepIndex& steps, int current_step, int focus_block,
                        std::int64_t first_column, int columns, const std::vector<char>& active,
                        float width, const OverviewMarks& marks);

// The block a click at tile `tile` of launch `launch` focuses.
int block_of_tile(const Overview& o, int launch, int tile);

}  // namespace rl::viewer
