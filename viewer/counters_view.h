#pragma once
// Draws what counter_layout.h placed: the counters panel beside a trace, with the tooltips that say
// how each figure was computed; and the throughput view's lines for a point.
#include <imgui.h>

#include <string>
#include <vector>

#include "viewer/counter_layout.h"

namespace rl::viewer {

// At the cursor; moves the cursor below the panel.
void draw_counter_panel(const CounterPanel& panel, const PanelLayout& layout);

// Lines at the cursor (layout_paragraphs), each cut at `width` px.
void draw_text_lines(const std::vector<TextLine>& lines, float width);

}  // namespace rl::viewer
