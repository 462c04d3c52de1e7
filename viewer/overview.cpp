#include "viewer/overview.h"

#include <algorithm>
#include <cmath>

namespace rl::viewer {

Overview build_overview(const Trace& t, const StepIndex& steps, int current, int focus_block,
                        std::int64_t first_column, int columns, const std::vector<char>& active,
                        float width, const OverviewMarks& marks) {
  Overview o;
  const int max_tiles = std::max(1, static_cast<int>(std::floor(width / kMinTilePx)));
  const Step* step =
      steps.steps.empty()
          ? nullptr
          : &steps.steps[static_cast<std::size_t>(std::clamp(current, 0, steps.count() - 1))];
  for (std::size_t l = 0; l < t.launches.size(); ++l) {
    OverviewLaunch ol;
    ol.launch = static_cast<int>(l);
    ol.grid = t.launches[l].grid;
    ol.current = step && step->launch == ol.launch;
    ol.done = step && step->launch > ol.launch;
    ol.blocks_per_tile = (ol.grid + max_tiles - 1) / max_tiles;
    const int tiles = (ol.grid + ol.blocks_per_tile - 1) / ol.blocks_per_tile;
    ol.tiles.resize(static_cast<std::size_t>(tiles));
    for (int i = 0; i < tiles; ++i) {
      OverviewTile& tile = ol.tiles[static_cast<std::size_t>(i)];
      tile.first_block = i * ol.blocks_per_tile;
      tile.last_block = std::min(ol.grid, (i + 1) * ol.blocks_per_tile) - 1;
      tile.focus = ol.current && focus_block >= tile.first_block && focus_block <= tile.last_block;
      tile.differs = marks.differs.first == ol.launch && marks.differs.second >= tile.first_block &&
                     marks.differs.second <= tile.last_block;
    }
    // Only the marked blocks and the current step's working blocks are visited: never every event.
    for (const auto& [launch, block] : marks.stale) {
      if (launch == ol.launch && block < ol.grid)
        ol.tiles[static_cast<std::size_t>(block / ol.blocks_per_tile)].stale = true;
    }
    if (ol.current) {
      const float threads = static_cast<float>(std::max(1, t.launches[l].block));
      for (const auto& [block, count] : step->block_active) {
        if (block >= ol.grid) continue;
        float& a = ol.tiles[static_cast<std::size_t>(block / ol.blocks_per_tile)].active;
        a = std::max(a, static_cast<float>(count) / threads);
      }
    }
    o.launches.push_back(std::move(ol));
  }
  const int block_dim = static_cast<int>(active.size());
  for (int w = 0; w * 32 < block_dim; ++w) {
    OverviewWarp ow;
    ow.warp = w;
    ow.lanes = std::min(32, block_dim - w * 32);
    for (int lane = 0; lane < ow.lanes; ++lane)
      ow.active += active[static_cast<std::size_t>(w * 32 + lane)] ? 1 : 0;
    const std::int64_t lo = std::int64_t{w} * 32, hi = lo + 32;
    ow.in_window = columns > 0 && lo < first_column + columns && hi > first_column;
    o.warps.push_back(ow);
  }
  return o;
}

int block_of_tile(const Overview& o, int launch, int tile) {
  if (launch < 0 || static_cast<std::size_t>(launch) >= o.launches.size()) return 0;
  const OverviewLaunch& l = o.launches[static_cast<std::size_t>(launch)];
  if (l.tiles.empty()) return 0;
  return l
      .tiles[static_cast<std::size_t>(std::clamp(tile, 0, static_cast<int>(l.tiles.size()) - 1))]
      .first_block;
}

}  // namespace rl::viewer
