#include "viewer/plot_widget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viewer/colors.h"
#include "viewer/plot_axis.h"
#include "viewer/results_model.h"

namespace rl::viewer {

namespace {

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float th) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) return;
  for (float s = 0; s < len; s += 10.f) {
    const float e = std::min(s + 6.f, len);
    dl->AddLine({a.x + dx * s / len, a.y + dy * s / len}, {a.x + dx * e / len, a.y + dy * e / len},
                col, th);
  }
}

}  // namespace

void LinePlot::draw(const char* id, ImVec2 size, const std::vector<PlotLine>& lines,
                    const PlotOptions& opt) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  size.x = std::max(size.x, 200.f);
  size.y = std::max(size.y, 150.f);
  ImGui::InvisibleButton("canvas", size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, {origin.x + size.x, origin.y + size.y}, kCanvasColor);

  // Legend geometry first: the plot area leaves room for it on the right.
  float legend_w = 0;
  for (const auto& l : lines) legend_w = std::max(legend_w, ImGui::CalcTextSize(l.label.c_str()).x);
  legend_w += 40.f;
  const PlotFrame frame = plot_frame(origin.x, origin.y, size.x, size.y, legend_w);
  const float left = frame.left, right = frame.right, top = frame.top, bottom = frame.bottom;

  double xmin = 1e300, xmax = 0, ymax = 0;
  for (const auto& l : lines) {
    if (hidden.count(l.label)) continue;
    for (std::size_t i = 0; i < l.xs.size(); ++i) {
      xmin = std::min(xmin, l.xs[i]);
      xmax = std::max(xmax, l.xs[i]);
      ymax = std::max(ymax, l.ys[i]);
    }
  }
  if (opt.reference_y) ymax = std::max(ymax, *opt.reference_y);
  if (opt.y_top) ymax = std::max(ymax, *opt.y_top / 1.05);
  if (xmax <= 0) {
    xmin = 1024;
    xmax = 1 << 20;
  }
  const Axis xa = x_axis_padded(xmin, xmax);
  const Axis ya = y_axis_for(ymax * 1.05, 8);
  auto to_screen = [&](double x, double y) {
    return ImVec2(left + static_cast<float>(xa.fraction(x)) * (right - left),
                  bottom - static_cast<float>(ya.fraction(y)) * (bottom - top));
  };

  // Grid and ticks.
  const float plot_w = right - left;
  for (auto t : log2_ticks(xa.lo, xa.hi, std::max(2, static_cast<int>(plot_w / 60.f)))) {
    if (opt.x_counts) t.label = std::to_string(static_cast<long long>(t.value));
    const float x = to_screen(t.value, 0).x;
    dl->AddLine({x, top}, {x, bottom}, kGridColor);
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    dl->AddText({x - ts.x / 2, frame.x_ticks_y}, kAxisColor, t.label.c_str());
  }
  for (const auto& t : linear_ticks(ya.lo, ya.hi, 8)) {
    const float y = to_screen(xa.lo, t.value).y;
    dl->AddLine({left, y}, {right, y}, kGridColor);
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    dl->AddText({left - ts.x - 6, y - ts.y / 2}, kAxisColor, t.label.c_str());
  }
  dl->AddRect({left, top}, {right, bottom}, kAxisColor);
  {
    const ImVec2 ts = ImGui::CalcTextSize(opt.x_label.c_str());
    dl->AddText({(left + right - ts.x) / 2, frame.x_title_y}, kTextColor, opt.x_label.c_str());
    dl->AddText({frame.y_title_x, frame.y_title_y}, kTextColor, opt.y_label.c_str());
  }

  dl->PushClipRect({left, top}, {right + 1, bottom + 1}, true);
  if (opt.reference_y) {
    const float y = to_screen(xa.lo, *opt.reference_y).y;
    dashed_line(dl, {left, y}, {right, y}, IM_COL32(255, 255, 255, 160), 1.5f);
    const float lx = opt.reference_label_right
                         ? right - ImGui::CalcTextSize(opt.reference_label.c_str()).x - 6
                         : left + 6;
    const float ly = opt.reference_label_right ? y + 3 : y - ImGui::GetTextLineHeight() - 2;
    dl->AddText({lx, ly}, IM_COL32(255, 255, 255, 200), opt.reference_label.c_str());
  }
  // Series, and the point nearest the mouse for the tooltip.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  float best = 12.f * 12.f;
  const PlotLine* best_line = nullptr;
  std::size_t best_i = 0;
  for (const auto& l : lines) {
    if (hidden.count(l.label)) continue;
    for (std::size_t i = 0; i < l.xs.size(); ++i) {
      const ImVec2 p = to_screen(l.xs[i], l.ys[i]);
      if (i > 0) {
        const ImVec2 q = to_screen(l.xs[i - 1], l.ys[i - 1]);
        if (l.dashed)
          dashed_line(dl, q, p, l.color, l.thickness);
        else
          dl->AddLine(q, p, l.color, l.thickness);
      }
      dl->AddCircleFilled(p, l.thickness + 1.f, l.color);
      const float dx = p.x - mouse.x, dy = p.y - mouse.y;
      if (hovered && dx * dx + dy * dy < best) {
        best = dx * dx + dy * dy;
        best_line = &l;
        best_i = i;
      }
    }
  }
  // The selected point, ringed while its series is shown.
  for (const auto& l : lines) {
    if (l.label != selected_label || hidden.count(l.label)) continue;
    for (std::size_t i = 0; i < l.xs.size(); ++i)
      if (l.xs[i] == selected_x)
        dl->AddCircle(to_screen(l.xs[i], l.ys[i]), 9.f, kTextColor, 0, 2.5f);
  }
  dl->PopClipRect();
  if (hovered && ImGui::IsMouseClicked(0)) {
    if (best_line) {
      selected_label = best_line->label;
      selected_x = best_line->xs[best_i];
    } else if (mouse.x >= left && mouse.x <= right && mouse.y >= top && mouse.y <= bottom) {
      selected_label.clear();
    }
  }

  if (best_line) {
    const ImVec2 p = to_screen(best_line->xs[best_i], best_line->ys[best_i]);
    dl->AddCircle(p, 7.f, kHighlight, 0, 2.f);
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(best_line->label.c_str());
    if (opt.x_counts)
      ImGui::Text("%s = %.0f", opt.point_unit.c_str(), best_line->xs[best_i]);
    else
      ImGui::Text("%s = %s (%.0f)", opt.point_unit.c_str(),
                  format_size(best_line->xs[best_i]).c_str(), best_line->xs[best_i]);
    ImGui::Text("%.1f %s", best_line->ys[best_i], opt.y_label.c_str());
    if (best_i < best_line->notes.size() && !best_line->notes[best_i].empty())
      ImGui::TextUnformatted(best_line->notes[best_i].c_str());
    ImGui::EndTooltip();
  }

  // Legend: click an entry to hide or show its series. Its entries close up (down to a text
  // line each) to stay within the widget's height, and what still does not fit is clipped rather
  // than drawn over what lies below the widget (the counter panel under the throughput plot).
  float ly = top;
  const float lx = right + 12.f;
  const float h = ImGui::GetTextLineHeight();
  const float room = origin.y + size.y - top;
  const float step =
      lines.empty() ? h + 4.f : std::clamp(room / static_cast<float>(lines.size()), h, h + 4.f);
  dl->PushClipRect({lx, origin.y}, {origin.x + size.x, origin.y + size.y}, true);
  for (const auto& l : lines) {
    const bool off = hidden.count(l.label) > 0;
    const ImU32 col = off ? greyed(l.color) : l.color;
    if (l.dashed)
      dashed_line(dl, {lx, ly + h / 2}, {lx + 22, ly + h / 2}, col, 2.f);
    else
      dl->AddLine({lx, ly + h / 2}, {lx + 22, ly + h / 2}, col, 2.f);
    dl->AddText({lx + 28, ly}, off ? kDimText : kTextColor, l.label.c_str());
    const ImVec2 a{lx, ly}, b{lx + legend_w, ly + h + 2};
    if (ImGui::IsMouseHoveringRect(a, b)) {
      dl->AddRect(a, b, kAxisColor);
      if (ImGui::IsMouseClicked(0)) {
        if (off)
          hidden.erase(l.label);
        else
          hidden.insert(l.label);
      }
    }
    ly += step;
  }
  dl->PopClipRect();
  ImGui::PopID();
}

}  // namespace rl::viewer
