#include "viewer/figure_layout.h"

#include <algorithm>
#include <cmath>

#include "viewer/cell_text.h"

namespace rl::viewer {

float gutter_width(bool two) { return two ? 20.f : 58.f; }

int window_columns(float width, std::int64_t total, bool two) {
  if (total <= 0) return 0;
  const float min = two ? kMinCellTwo : kMinCellOne;
  if (static_cast<float>(total) * min <= width) return static_cast<int>(total);
  const int warps = std::max(1, static_cast<int>(std::floor(width / (kWarpColumns * min))));
  return static_cast<int>(std::min<std::int64_t>(total, std::int64_t{warps} * kWarpColumns));
}

namespace {

constexpr float kBandH = kFontLineH;      // the warp band labels
constexpr float kSmallH = kCompactH + 2;  // a line of compact text
constexpr float kMinGap = 22.f;           // between rows: the thread labels and the arrows
constexpr float kMaxGap = 44.f;

// Labels are placed one by one; a label that would overlap one already placed, or leave the area,
// is not placed (the hover tooltip still tells).
struct Placer {
  const Rect& area;
  std::vector<Label>& labels;
  bool place(Label l) {
    if (!area.contains(l.box)) return false;
    for (const Label& o : labels)
      if (o.box.overlaps(l.box)) return false;
    labels.push_back(std::move(l));
    return true;
  }
};

// "t" + std::to_string(n), appended: GCC 12 warns (-Wrestrict) falsely on the literal + string
// form.
std::string prefixed(const char* prefix, long long n) {
  std::string s = prefix;
  s += std::to_string(n);
  return s;
}

Rect text_box(float x, float y, const std::string& s, bool compact) {
  const float w = compact ? compact_width(s) : text_width(s);
  const float h = compact ? kCompactH : kFontLineH;
  return {x, y, x + w, y + h};
}

Rect centred(float cx, float y, const std::string& s, bool compact) {
  const float w = compact ? compact_width(s) : text_width(s);
  return text_box(cx - w / 2, y, s, compact);
}

}  // namespace

FigureGeometry layout_figure(const BlockFigure& f, Rect area, bool two) {
  FigureGeometry g;
  g.area = area;
  g.gutter = gutter_width(two);
  const int cols = f.column_count;
  if (cols <= 0 || f.rows.empty()) return g;
  Placer placer{g.area, g.labels};
  const float x_left = area.x0 + g.gutter;
  g.pitch = std::min(kMaxCell, (area.x1 - x_left) / static_cast<float>(cols));
  g.cell_w = std::floor(g.pitch - (g.pitch >= 24 ? 2.f : 1.f));
  g.cell_h = two ? 15.f : 17.f;
  const float x_right = x_left + g.pitch * static_cast<float>(cols);
  auto col_x = [&](int c) {
    return x_left + g.pitch * static_cast<float>(c) + (g.pitch - g.cell_w) / 2;
  };
  auto col_cx = [&](int c) { return col_x(c) + g.cell_w / 2; };

  // Header: warp bands, column indexes, banks.
  const bool banks = f.shared_size > 0;
  const float y_band = area.y0, y_index = y_band + kBandH + 2, y_bank = y_index + kSmallH;
  const float header_bottom = (banks ? y_bank + kSmallH : y_index + kSmallH) + 2;

  // Rows: as many of the last ones as fit, the current one last.
  // Below the last row: its stores and the n-way of its bank conflicts.
  const float bottom = area.y1 - (kSmallH + 4);
  const int rows = static_cast<int>(f.rows.size());
  float top = header_bottom;
  int fit = std::max(1, static_cast<int>(std::floor((bottom - top) / (g.cell_h + kMinGap))));
  if (fit < rows) {
    top += kFontLineH + 2;  // room for the "earlier steps" note
    fit = std::max(1, static_cast<int>(std::floor((bottom - top) / (g.cell_h + kMinGap))));
  }
  g.first_row = std::max(0, rows - fit);
  const int shown = rows - g.first_row;
  g.gap = std::clamp((bottom - top) / static_cast<float>(shown) - g.cell_h, kMinGap, kMaxGap);
  const float rows_bottom = top + static_cast<float>(shown) * (g.gap + g.cell_h);

  for (int c = 0; c < cols;) {
    const std::int64_t index = f.first_column + c;
    const std::int64_t warp = index / kWarpColumns;
    int end = c;
    while (end < cols && (f.first_column + end) / kWarpColumns == warp) ++end;
    g.bands.push_back({{x_left + g.pitch * static_cast<float>(c), area.y0,
                        x_left + g.pitch * static_cast<float>(end), rows_bottom},
                       warp});
    const std::int64_t lo = index, hi = f.first_column + end - 1;
    std::string text =
        f.register_size > 0 ? prefixed("warp ", warp) : prefixed("slots ", lo) + prefixed("-", hi);
    if (text_width(text) > g.pitch * static_cast<float>(end - c)) text = prefixed("w", warp);
    const float cx = x_left + g.pitch * (static_cast<float>(c + end) / 2);
    placer.place({centred(cx, y_band, text, false), text, LabelKind::band, false, -1, -1});
    c = end;
  }
  for (int c = 0; c < cols; ++c) {
    const std::int64_t index = f.first_column + c;
    const std::string text = std::to_string(index);
    Rect box = centred(col_cx(c), y_index, text, true);
    box.x0 -= 1, box.x1 += 1;  // one pixel apart at least
    if (placer.place({box, text, LabelKind::index, true, -1, c})) {
      g.labels.back().box.x0 += 1, g.labels.back().box.x1 -= 1;
    }
    if (banks) {
      const std::string b = prefixed("b", index % 32);
      Rect bb = centred(col_cx(c), y_bank, b, true);
      bb.x0 -= 1, bb.x1 += 1;
      if (placer.place({bb, b, LabelKind::bank, true, -1, c}))
        g.labels.back().box.x0 += 1, g.labels.back().box.x1 -= 1;
    }
  }
  if (g.first_row > 0) {
    const std::string note = std::to_string(g.first_row) +
                             (g.first_row == 1 ? " earlier step" : " earlier steps") + " above";
    placer.place(
        {text_box(x_left, header_bottom, note, false), note, LabelKind::note, false, -1, -1});
  }

  std::vector<float> row_y(static_cast<std::size_t>(rows), 0.f);
  for (int r = g.first_row; r < rows; ++r)
    row_y[static_cast<std::size_t>(r)] =
        top + static_cast<float>(r - g.first_row) * (g.gap + g.cell_h) + g.gap;
  auto in_window = [&](std::int64_t index) {
    return index >= f.first_column && index < f.first_column + cols;
  };

  for (int r = g.first_row; r < rows; ++r) {
    const FigureRow& row = f.rows[static_cast<std::size_t>(r)];
    const float y0 = row_y[static_cast<std::size_t>(r)], y1 = y0 + g.cell_h;
    // Step numbers in the gutter, once per step; under them which array the row shows.
    if (r == g.first_row || f.rows[static_cast<std::size_t>(r - 1)].step != row.step) {
      const std::string text = two ? std::to_string(row.number) : prefixed("step ", row.number);
      const float w = text_width(text);
      placer.place({text_box(x_left - w - 2, y0 + (g.cell_h - kFontLineH) / 2, text, false), text,
                    LabelKind::gutter, false, r, -1});
    }
    {
      const bool reg = row.array == ArrayKind::reg;
      const std::string tag = two ? (reg ? "r" : "s") : (reg ? "registers" : "shared");
      placer.place({text_box(x_left - compact_width(tag) - 4, y1 + 2, tag, true), tag,
                    LabelKind::gutter, true, r, -1});
    }
    // Where the row's global reads came from, at the top of its gap.
    if (!row.reads.empty()) {
      const std::string text = "read " + row.reads;
      placer.place(
          {text_box(x_left, y0 - g.gap + 1, text, true), text, LabelKind::edge, true, r, -1});
    }
    for (int c = 0; c < cols; ++c) {
      const FigureCell& cell = row.cells[static_cast<std::size_t>(c)];
      const Rect box{col_x(c), y0, col_x(c) + g.cell_w, y1};
      g.cells.push_back({box, r, c});
      if (cell.held) {
        const std::string v = format_cell_value(cell.value, g.cell_w - 2);
        if (!v.empty())
          placer.place({centred(col_cx(c), y0 + (g.cell_h - kCompactH) / 2, v, true), v,
                        LabelKind::value, true, r, c});
      }
    }
    // The thread of each write, just above the cell it wrote.
    std::vector<float> arrow_end(static_cast<std::size_t>(cols), y0 - 1);
    for (int c = 0; c < cols; ++c) {
      const FigureCell& cell = row.cells[static_cast<std::size_t>(c)];
      if (!cell.written || cell.thread < 0) continue;
      std::string text = prefixed("t", cell.thread);
      if (compact_width(text) > g.pitch - 1) text = std::to_string(cell.thread);
      if (compact_width(text) > g.pitch - 1) continue;
      if (placer.place({centred(col_cx(c), y0 - kCompactH - 2, text, true), text, LabelKind::thread,
                        true, r, c}))
        arrow_end[static_cast<std::size_t>(c)] = y0 - kCompactH - 3;
    }
    // Arrows: from the cell read (in the row that shows it) to the label of the write.
    std::int64_t off_lo[2] = {-1, -1}, off_hi[2] = {-1, -1};  // left, right
    for (std::size_t a = 0; a < row.arrows.size(); ++a) {
      const FigureArrow& arrow = row.arrows[a];
      if (!in_window(arrow.to_index)) continue;
      const int dc = static_cast<int>(arrow.to_index - f.first_column);
      ArrowLine line;
      line.row = r;
      line.arrow = static_cast<int>(a);
      line.x1 = col_cx(dc);
      line.y1 = arrow_end[static_cast<std::size_t>(dc)];
      if (in_window(arrow.from_index)) {
        const int sc = static_cast<int>(arrow.from_index - f.first_column);
        line.x0 = col_cx(sc);
        line.y0 = arrow.from_row >= g.first_row
                      ? row_y[static_cast<std::size_t>(arrow.from_row)] + g.cell_h + 1
                      : y0 - g.gap + 1;
      } else {
        const int side = arrow.from_index < f.first_column ? 0 : 1;
        if (off_lo[side] < 0 || arrow.from_index < off_lo[side]) off_lo[side] = arrow.from_index;
        off_hi[side] = std::max(off_hi[side], arrow.from_index);
        line.off_window = true;
        line.x0 = std::clamp(line.x1 + (side ? 1.f : -1.f) * g.pitch * 0.7f, x_left, x_right);
        line.y0 = y0 - g.gap + kSmallH + 2;
      }
      g.arrows.push_back(line);
    }
    for (int side = 0; side < 2; ++side) {
      if (off_lo[side] < 0) continue;
      std::string text = prefixed("from [", off_lo[side]);
      if (off_hi[side] != off_lo[side]) text += ".." + std::to_string(off_hi[side]);
      text += "]";
      const float w = compact_width(text);
      const float x = side ? x_right - w : x_left;
      placer.place({text_box(x, y0 - g.gap + 1, text, true), text, LabelKind::edge, true, r, -1});
    }
    // The n-way of each colliding cell of the current row, under it.
    if (row.current) {
      for (int c = 0; c < cols; ++c) {
        const int ways = row.cells[static_cast<std::size_t>(c)].conflict_ways;
        if (ways < 2) continue;
        const std::string text = prefixed("", ways) + "x";
        placer.place(
            {centred(col_cx(c), y1 + 3, text, true), text, LabelKind::conflict, true, r, c});
      }
    }
    // Stores to global memory: below the cell the value came from.
    for (std::size_t o = 0; o < row.outs.size(); ++o) {
      const FigureOut& out = row.outs[o];
      const std::string text = out.target + "=" + format_cell_value(out.value, 30.f);
      float x = x_left;
      OutLine line;
      line.row = r;
      line.out = static_cast<int>(o);
      const bool shown_here =
          out.from_index >= 0 && in_window(out.from_index) && out.from_array == row.array;
      if (shown_here) {
        const int c = static_cast<int>(out.from_index - f.first_column);
        line.x0 = line.x1 = col_cx(c);
        line.y0 = y1 + 1;
        line.y1 = y1 + kSmallH + 1;
        x = col_cx(c) + 4;
      }
      bool placed = false;
      for (int tries = 0; tries < 4 && !placed; ++tries, x += g.pitch) {
        placed = placer.place({text_box(x, y1 + 3, text, true), text, LabelKind::out, true, r, -1});
      }
      if (placed && shown_here) g.outs.push_back(line);
    }
  }
  return g;
}

}  // namespace rl::viewer
