#pragma once
// Block figure -> positions: the cells of each row, the arrows between them, and every label the
// figure writes (warp bands, column indexes, banks, values, the thread of each write, where an
// off-window read came from, where a store went), each with its box, so that the drawing only
// draws and the tests can check that no two labels overlap. Also how many columns fit: every
// cell at least kMinCellOne px wide with one trace shown, kMinCellTwo px with two side by side;
// when a block's columns do not fit, the window holds whole warps (32 columns) and the overview
// shows the rest. Pure: no ImGui, unit-tested.
#include <cstdint>
#include <string>
#include <vector>

#include "viewer/block_figure.h"

namespace rl::viewer {

inline constexpr float kMinCellOne = 28.f;  // px, one trace shown
inline constexpr float kMinCellTwo = 18.f;  // px, two traces side by side
inline constexpr float kMaxCell = 64.f;
inline constexpr int kWarpColumns = 32;
inline constexpr float kWindowPadding = 8.f;  // ImGui's default WindowPadding around the one window
inline constexpr float kPanelGap = 8.f;       // between two panels side by side

// The width of a trace's panel in a window `display_w` px wide, one or two panels side by side.
inline float panel_width(float display_w, bool two) {
  const float avail = display_w - 2 * kWindowPadding;
  return two ? (avail - kPanelGap) / 2 : avail;
}

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float w() const { return x1 - x0; }
  float h() const { return y1 - y0; }
  bool overlaps(const Rect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool contains(const Rect& o) const {
    return o.x0 >= x0 && o.x1 <= x1 && o.y0 >= y0 && o.y1 <= y1;
  }
};

enum class LabelKind : std::uint8_t {
  band,
  index,
  bank,
  value,
  thread,
  gutter,
  edge,
  out,
  conflict,
  note
};

struct Label {
  Rect box;
  std::string text;
  LabelKind kind = LabelKind::value;
  bool compact = true;  // the compact font (else the default font)
  int row = -1;         // figure row, -1 for the header
  int column = -1;      // window column, -1 when none
};

struct CellBox {
  Rect box;
  int row = 0;
  int column = 0;
};

struct ArrowLine {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int row = 0;
  int arrow = 0;            // index into the row's arrows
  bool off_window = false;  // the value read lies outside the window's columns
};

struct OutLine {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int row = 0;
  int out = 0;  // index into the row's outs
};

struct FigureGeometry {
  Rect area;
  float gutter = 0;
  float pitch = 0;  // column pitch
  float cell_w = 0, cell_h = 0, gap = 0;
  int first_row = 0;  // rows before it do not fit and are not drawn
  struct Band {
    Rect box;
    std::int64_t warp = 0;  // columns warp*32 .. warp*32+31
  };
  std::vector<Band> bands;  // one per warp-sized group of columns in the window, full height
  std::vector<CellBox> cells;
  std::vector<ArrowLine> arrows;
  std::vector<OutLine> outs;
  std::vector<Label> labels;
};

// The gutter at the left of the rows (the step numbers).
float gutter_width(bool two);
// How many columns of a block's `total` the window holds in `width` px: all of them when each gets
// the minimum, else whole warps (at least one).
int window_columns(float width, std::int64_t total, bool two);
// The columns for a figure area `width` px wide (the gutter included).
inline int figure_columns(float width, std::int64_t total, bool two) {
  return window_columns(width - gutter_width(two), total, two);
}

FigureGeometry layout_figure(const BlockFigure& f, Rect area, bool two);

}  // namespace rl::viewer
