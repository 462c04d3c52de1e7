#pragma once
// Counter panel -> positions: the lines of the panel beside a trace at a given width (title,
// caveat, the table of trace against counter, the other counters wrapped between phrases) and its
// height, so that the tree view sizes its figure before drawing; and where the panel goes in a
// trace's column: beside the source where the column is wide, above it where not. Pure: no ImGui,
// unit-tested.
#include <string>
#include <vector>

#include "viewer/counter_text.h"

namespace rl::viewer {

inline constexpr float kPanelLineH = 17.f;  // the default font's line and ImGui's item spacing
inline constexpr float kMinPanelW = 470.f;  // the table's three columns
inline constexpr float kBesideSourceW =
    1000.f;  // a column this wide has the panel beside its source

enum class PanelStyle { title, dim, caveat, heading, text, value };

struct PanelCell {
  float x = 0;  // from the panel's left
  std::string text;
  PanelStyle style = PanelStyle::text;
  int tip = -1;  // its tooltip: -1 none, 0.. a row of the table, rows.size(): the facts
};

struct PanelLine {
  float y = 0;  // from the panel's top
  std::vector<PanelCell> cells;
};

struct PanelLayout {
  std::vector<PanelLine> lines;
  float width = 0, height = 0;
};

PanelLayout layout_counter_panel(const CounterPanel& panel, float width);

// Paragraphs of phrases (point_counter_text) as lines of at most `width` px, broken between
// phrases; the first paragraph's lines are the title.
struct TextLine {
  std::string text;
  PanelStyle style = PanelStyle::text;
};
std::vector<TextLine> layout_paragraphs(const std::vector<std::vector<std::string>>& paragraphs,
                                        float width);

// A column's bottom area: the source, and the counters panel beside or above it.
struct BottomPlace {
  bool beside = false;
  float panel_w = 0;   // the panel's width (the column's, above the source)
  float source_w = 0;  // the source's
};
BottomPlace place_counters(float column_w);

}  // namespace rl::viewer
