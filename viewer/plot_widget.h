#pragma once
// A small line plot on ImDrawList: log2 x axis, linear y axis, ticks, grid, a legend whose entries
// toggle their series, a tooltip with the exact figures of the point under the mouse, a point
// selected by a click, and an optional horizontal reference line.
#include <imgui.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rl::viewer {

struct PlotLine {
  std::string label;
  ImU32 color = IM_COL32_WHITE;
  std::vector<double> xs, ys;
  std::vector<std::string> notes;  // optional extra tooltip text per point
  bool dashed = false;
  float thickness = 2.f;
};

struct PlotOptions {
  std::string x_label = "n (elements)";
  std::string y_label = "GB/s";
  std::optional<double> reference_y;
  std::string reference_label;
  // the label under the line's right end (clear of lines rising above it)
  bool reference_label_right = false;
  bool x_counts = false;         // x ticks labelled 1, 2, 4 (GPU counts) instead of 2^k
  std::optional<double> y_top;   // the y axis reaches at least this
  std::string point_unit = "n";  // the tooltip's name for x: "n = 2^24", "GPUs = 2"
};

class LinePlot {
 public:
  void draw(const char* id, ImVec2 size, const std::vector<PlotLine>& lines,
            const PlotOptions& options);
  std::set<std::string> hidden;  // labels of series switched off in the legend
  // The point clicked last, ringed: its series' label and x ("" when none). A click on the plot
  // away from every point clears it.
  std::string selected_label;
  double selected_x = 0;
};

}  // namespace rl::viewer
