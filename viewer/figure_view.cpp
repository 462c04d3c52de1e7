#include "viewer/figure_view.h"

#include <algorithm>
#include <cmath>

#include "common/trace/trace_facts.h"
#include "viewer/colors.h"
#include "viewer/compact_font.h"

namespace rl::viewer {
namespace {

void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float th, float head, bool dashed) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1.f) return;
  const float ux = dx / len, uy = dy / len;
  const ImVec2 base{b.x - ux * head, b.y - uy * head};
  if (dashed) {
    for (float s = 0; s < len - head; s += 6.f) {
      const float e = std::min(s + 3.5f, len - head);
      dl->AddLine({a.x + ux * s, a.y + uy * s}, {a.x + ux * e, a.y + uy * e}, col, th);
    }
  } else {
    dl->AddLine(a, base, col, th);
  }
  dl->AddTriangleFilled(b, {base.x - uy * head * 0.5f, base.y + ux * head * 0.5f},
                        {base.x + uy * head * 0.5f, base.y - ux * head * 0.5f}, col);
}

ImVec2 v(float x, float y) { return {x, y}; }

const char* kind_name(EventKind k) {
  switch (k) {
    case EventKind::load:
      return "loaded";
    case EventKind::store:
      return "stored";
    case EventKind::combine:
      return "added";
    case EventKind::shuffle:
      return "added through a shuffle";
    case EventKind::atomic:
      return "added atomically";
    default:
      return "";
  }
}

std::string place_name(const Trace& t, const Location& l, const std::string& array) {
  if (l.space.kind == SpaceKind::shared) return array + "[" + std::to_string(l.index) + "]";
  if (l.space.kind == SpaceKind::reg) return "lane " + std::to_string(l.index) + "'s register";
  return t.location_name(l);
}

void tooltip(const Trace& t, const BlockFigure& f, const FigureRow& row, int column,
             const FigureTooltipExtra& extra) {
  const FigureCell& c = row.cells[static_cast<std::size_t>(column)];
  const std::int64_t index = f.first_column + column;
  ImGui::BeginTooltip();
  if (row.array == ArrayKind::shared) {
    ImGui::Text("%s[%lld]  (bank %d)  block %d, step %d", extra.array_name.c_str(),
                static_cast<long long>(index), static_cast<int>(index % kSharedBanks), f.block,
                row.number);
  } else {
    ImGui::Text("register of lane %lld (thread %lld, warp %lld)  block %d, step %d",
                static_cast<long long>(index % 32), static_cast<long long>(index),
                static_cast<long long>(index / 32), f.block, row.number);
  }
  if (!c.held)
    ImGui::TextUnformatted("no value written in this launch yet");
  else
    ImGui::Text("holds %.9g", c.value);
  if (c.written && c.event >= 0) {
    const Event& e = t.events[static_cast<std::size_t>(c.event)];
    ImGui::Text("%s by thread %d (warp %d, lane %d) at line %d", kind_name(e.kind), e.thread,
                e.thread / 32, e.thread % 32, e.line);
    const Operand* ops[2] = {&e.a, &e.b};
    const int node = t.dag.event_nodes[static_cast<std::size_t>(c.event)];
    for (int k = 0; k < 2; ++k) {
      if (!ops[k]->present() || ops[k]->loc.space.kind == SpaceKind::constant) continue;
      std::string where =
          ops[k]->loc.space.kind == SpaceKind::event
              ? place_name(t, t.events[static_cast<std::size_t>(ops[k]->loc.index)].dst,
                           extra.array_name)
              : place_name(t, ops[k]->loc, extra.array_name);
      const bool bad =
          node >= 0 && ((t.dag.nodes[static_cast<std::size_t>(node)].unexplained >> k) & 1);
      ImGui::TextColored(bad ? ImVec4(1, 0.5f, 0.4f, 1) : ImVec4(0.85f, 0.85f, 0.9f, 1),
                         "  read %s = %.9g%s", where.c_str(), ops[k]->value,
                         bad ? "  (not the value the trace says it held)" : "");
    }
    if (node >= 0)
      ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "tree level %d (from the data flow)",
                         t.dag.nodes[static_cast<std::size_t>(node)].level);
  }
  if (c.conflict_ways >= 2)
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1),
                       "%d-way bank conflict: its warp touched %d words of bank %d at once",
                       c.conflict_ways, c.conflict_ways, static_cast<int>(index % 32));
  if (c.stale)
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1),
                       "part of a stale read (see the red line above the figure)");
  if (c.differs) {
    if (extra.other_written)
      ImGui::TextColored(ImVec4(1, 0.5f, 1, 1),
                         "first difference: %.9g here, %.9g in the other trace", c.value,
                         extra.other_value);
    else
      ImGui::TextColored(ImVec4(1, 0.5f, 1, 1),
                         "first difference: the other trace writes nothing here");
  }
  ImGui::EndTooltip();
}

}  // namespace

int draw_figure(const Trace& t, const BlockFigure& f, const FigureGeometry& g, double progress,
                const FigureTooltipExtra& extra) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (g.cells.empty()) return -1;
  const float fade = static_cast<float>(std::clamp(progress, 0.0, 1.0));

  // Warp bands behind everything.
  for (const auto& band : g.bands) {
    const Rect& r = band.box;
    dl->AddRectFilled(v(r.x0, r.y0), v(r.x1 - 1, r.y1),
                      band.warp % 2 ? IM_COL32(36, 36, 46, 255) : IM_COL32(44, 44, 56, 255), 3.f);
  }
  // The current row's band across the figure.
  for (const CellBox& cb : g.cells) {
    const FigureRow& row = f.rows[static_cast<std::size_t>(cb.row)];
    if (row.current && cb.column == 0) {
      dl->AddRectFilled(v(g.area.x0, cb.box.y0 - g.gap + 2), v(g.area.x1, cb.box.y1 + 2),
                        IM_COL32(255, 210, 80, 18));
    }
  }

  // Arrows under the cells and labels: earlier rows faint, the current row fading in.
  for (const ArrowLine& line : g.arrows) {
    const FigureRow& row = f.rows[static_cast<std::size_t>(line.row)];
    const FigureArrow& a = row.arrows[static_cast<std::size_t>(line.arrow)];
    ImU32 col = a.carry     ? IM_COL32(150, 150, 165, 255)
                : a.shuffle ? IM_COL32(255, 150, 60, 255)
                            : IM_COL32(225, 225, 240, 255);
    if (a.unexplained) col = kUnexplained;
    if (a.stale) col = kStale;
    const float alpha = row.current ? 0.2f + 0.8f * fade : 0.3f;
    const float th = a.stale ? 2.f : a.carry ? 1.f : 1.5f;
    arrow(dl, v(line.x0, line.y0), v(line.x1, line.y1), with_alpha(col, alpha), th,
          a.carry ? 4.f : 6.f, line.off_window || a.stale);
  }
  for (const OutLine& o : g.outs) {
    const FigureRow& row = f.rows[static_cast<std::size_t>(o.row)];
    arrow(dl, v(o.x0, o.y0), v(o.x1, o.y1),
          with_alpha(IM_COL32(120, 200, 255, 255), row.current ? 1.f : 0.5f), 1.5f, 4.f, false);
  }

  // Cells.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hover_ok = ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
  const CellBox* hovered = nullptr;
  for (const CellBox& cb : g.cells) {
    const FigureRow& row = f.rows[static_cast<std::size_t>(cb.row)];
    const FigureCell& c = row.cells[static_cast<std::size_t>(cb.column)];
    const float round = row.array == ArrayKind::reg ? 6.f : 1.f;
    const ImVec2 a = v(cb.box.x0, cb.box.y0), b = v(cb.box.x1, cb.box.y1);
    ImU32 fill;
    if (c.written)
      fill = row.current ? warp_color(c.thread / 32) : greyed(warp_color(c.thread / 32));
    else if (c.held)
      fill = IM_COL32(52, 52, 62, 255);
    else
      fill = IM_COL32(30, 30, 36, 255);
    if (c.written && row.current) fill = with_alpha(fill, 0.35f + 0.65f * fade);
    dl->AddRectFilled(a, b, fill, round);
    if (!c.held) dl->AddRect(a, b, IM_COL32(62, 62, 72, 255), round);
    if (c.conflict_ways >= 2) dl->AddRect(a, b, kStale, round, 0, 2.f);
    if (c.unexplained)
      dl->AddRect(v(a.x - 1, a.y - 1), v(b.x + 1, b.y + 1), kUnexplained, round, 0, 2.f);
    if (c.stale) dl->AddRect(v(a.x - 2, a.y - 2), v(b.x + 2, b.y + 2), kStale, round, 0, 2.f);
    if (c.differs) dl->AddRect(v(a.x - 3, a.y - 3), v(b.x + 3, b.y + 3), kDiffers, round, 0, 2.5f);
    if (hover_ok && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
      hovered = &cb;
  }

  // Labels, exactly as laid out.
  for (const Label& l : g.labels) {
    ImU32 col = kTextColor;
    const FigureRow* row = l.row >= 0 ? &f.rows[static_cast<std::size_t>(l.row)] : nullptr;
    switch (l.kind) {
      case LabelKind::band:
        col = kDimText;
        break;
      case LabelKind::index:
        col = IM_COL32(175, 175, 185, 255);
        break;
      case LabelKind::bank:
        col = IM_COL32(120, 120, 135, 255);
        break;
      case LabelKind::value: {
        const FigureCell& c = row->cells[static_cast<std::size_t>(l.column)];
        col = c.written && row->current ? IM_COL32_WHITE
              : c.written               ? IM_COL32(215, 215, 222, 255)
                                        : IM_COL32(165, 165, 175, 255);
        break;
      }
      case LabelKind::thread: {
        const FigureCell& c = row->cells[static_cast<std::size_t>(l.column)];
        col = row->current ? IM_COL32(255, 225, 140, 255)
                           : with_alpha(IM_COL32(200, 200, 210, 255), 0.6f);
        if (c.conflict_ways >= 2 && row->current) col = IM_COL32(255, 120, 110, 255);
        break;
      }
      case LabelKind::gutter:
        col = row && row->current ? kHighlight : kDimText;
        break;
      case LabelKind::edge:
        col = IM_COL32(190, 190, 200, 255);
        break;
      case LabelKind::out:
        col = IM_COL32(140, 210, 255, 255);
        break;
      case LabelKind::conflict:
        col = kStale;
        break;
      case LabelKind::note:
        col = kDimText;
        break;
    }
    if (l.compact)
      compact_text(dl, v(l.box.x0, l.box.y0), col, l.text);
    else
      dl->AddText(v(l.box.x0, l.box.y0), col, l.text.c_str());
  }

  if (hovered) {
    const FigureRow& row = f.rows[static_cast<std::size_t>(hovered->row)];
    tooltip(t, f, row, hovered->column, extra);
    return row.cells[static_cast<std::size_t>(hovered->column)].event;
  }
  return -1;
}

}  // namespace rl::viewer
