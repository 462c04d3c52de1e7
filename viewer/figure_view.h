#pragma once
// Draws a laid-out block figure (figure_layout.h): warp bands, cells lit when this step wrote them
// (in the writing warp's colour) and dimmed when they only hold an older value, arrows from the
// cells read to the thread that wrote, red edges where banks collide, the marks of stale reads,
// unexplained reads and the first difference, and a tooltip for the cell under the mouse.
#include <imgui.h>

#include <string>

#include "common/trace/trace_model.h"
#include "viewer/block_figure.h"
#include "viewer/figure_layout.h"
#include "viewer/steps.h"

namespace rl::viewer {

// What the tooltip may add about a cell: the other trace's value at the first difference.
struct FigureTooltipExtra {
  int differs_event = -1;
  double other_value = 0.0;
  bool other_written = true;
  std::string array_name = "shared";
};

// Draws the figure; `progress` (0..1) fades in the current row's arrows. Returns the event of the
// cell under the mouse (-1 when none), after showing its tooltip.
int draw_figure(const Trace& t, const BlockFigure& f, const FigureGeometry& g, double progress,
                const FigureTooltipExtra& extra);

}  // namespace rl::viewer
