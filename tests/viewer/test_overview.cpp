// The overview of every launch and block: one tile a block while they fit, several blocks a tile
// past that (the coarser level of detail of a 200,000-event trace), and its marks.
#include <catch2/catch.hpp>

#include "../trace/synthetic_trace.h"
#include "viewer/overview.h"
#include "viewer/steps.h"
#include "viewer_test_support.h"

using namespace rl;
using namespace rl::viewer;

TEST_CASE("a small trace: a tile per block, lit by its working threads", "[overview]") {
  const Trace t = viewer::test::asset("03_sequential_addressing.sim.json");
  const StepIndex idx = index_steps(t);
  OverviewMarks marks;
  marks.stale.emplace(0, 1);
  marks.differs = {0, 0};
  const std::vector<char> active(32, 1);
  const Overview o = build_overview(t, idx, 1, 0, 0, 32, active, 1188, marks);
  REQUIRE(o.launches.size() == 2);
  REQUIRE(o.launches[0].tiles.size() == 2);
  REQUIRE(o.launches[0].blocks_per_tile == 1);
  REQUIRE(o.launches[0].current);
  REQUIRE(!o.launches[1].current);
  REQUIRE(o.launches[0].tiles[0].active == Approx(0.5));  // 16 of 32 threads add at stride 16
  REQUIRE(o.launches[0].tiles[0].focus);
  REQUIRE(o.launches[0].tiles[0].differs);
  REQUIRE(o.launches[0].tiles[1].stale);
  REQUIRE(o.warps.size() == 1);
  REQUIRE(o.warps[0].in_window);
  REQUIRE(block_of_tile(o, 0, 1) == 1);
}

TEST_CASE("a 200,000-event trace: its 391 blocks drawn a few to a tile", "[overview]") {
  const Trace t = parse_trace(rl::test::synthetic_trace(rl::test::Pattern::sequential, 100000, 256),
                              "big.json");
  REQUIRE(t.events.size() >= 200000);
  const StepIndex idx = index_steps(t);
  const std::vector<char> active(256, 0);
  for (float width : {1188.f, 552.f}) {
    const Overview o = build_overview(t, idx, 1, 200, 0, 32, active, width, {});
    const OverviewLaunch& l = o.launches[0];
    REQUIRE(l.grid == 391);
    REQUIRE(static_cast<float>(l.tiles.size()) <= width / kMinTilePx);
    // 396 tiles fit at 1188 px (one a block); 184 at 552 px (three blocks a tile).
    REQUIRE(l.blocks_per_tile == (width > 1000 ? 1 : 3));
    int covered = 0;
    for (const OverviewTile& tile : l.tiles) covered += tile.last_block - tile.first_block + 1;
    REQUIRE(covered == 391);
    int focus = 0;
    for (const OverviewTile& tile : l.tiles) focus += tile.focus ? 1 : 0;
    REQUIRE(focus == 1);
    REQUIRE(o.warps.size() == 8);
  }
}
