#pragma once
// Draws the overview strip (overview.h): a row of tiles per launch, lit by the share of each
// block's threads working at the current step, with the focus block outlined in yellow, stale
// reads red and the first difference magenta; then the focus block's warps, the window's outlined.
// Clicks come back as what to focus.
#include <imgui.h>

#include "viewer/overview.h"

namespace rl::viewer {

struct OverviewClick {
  int launch = -1, block = -1;  // a tile was clicked
  int warp = -1;                // a warp of the focus block was clicked
};

// Height the strip takes for `o`.
float overview_height(const Overview& o);
OverviewClick draw_overview(const Overview& o, ImVec2 origin, float width);

}  // namespace rl::viewer
