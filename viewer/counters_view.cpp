#include "viewer/counters_view.h"

#include "viewer/colors.h"

namespace rl::viewer {
namespace {

ImU32 color_of(PanelStyle s) {
  switch (s) {
    case PanelStyle::title:
      return IM_COL32(255, 255, 255, 255);
    case PanelStyle::dim:
    case PanelStyle::heading:
      return kDimText;
    case PanelStyle::caveat:
      return kUnexplained;
    case PanelStyle::value:
      return IM_COL32(255, 216, 100, 255);
    case PanelStyle::text:
      break;
  }
  return kTextColor;
}

}  // namespace

void draw_counter_panel(const CounterPanel& panel, const PanelLayout& layout) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  dl->PushClipRect(o, {o.x + layout.width, o.y + layout.height}, true);
  int hovered_tip = -1;
  for (const PanelLine& line : layout.lines) {
    for (const PanelCell& c : line.cells)
      dl->AddText({o.x + c.x, o.y + line.y}, color_of(c.style), c.text.c_str());
    // A line with a tooltip: hovering anywhere along it shows how its figures were computed.
    if (!line.cells.empty() && line.cells.front().tip >= 0 &&
        ImGui::IsMouseHoveringRect({o.x, o.y + line.y},
                                   {o.x + layout.width, o.y + line.y + kPanelLineH}))
      hovered_tip = line.cells.front().tip;
  }
  dl->PopClipRect();
  if (hovered_tip >= 0 && hovered_tip < static_cast<int>(panel.rows.size()))
    ImGui::SetTooltip("%s", panel.rows[static_cast<std::size_t>(hovered_tip)].tip.c_str());
  else if (hovered_tip >= 0)
    ImGui::SetTooltip("%s", panel.facts_tip.c_str());
  ImGui::Dummy({layout.width, layout.height});
}

void draw_text_lines(const std::vector<TextLine>& lines, float width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float h = kPanelLineH * static_cast<float>(lines.size());
  dl->PushClipRect(o, {o.x + width, o.y + h}, true);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    dl->AddText({o.x, o.y + kPanelLineH * static_cast<float>(i)}, color_of(lines[i].style),
                lines[i].text.c_str());
  }
  dl->PopClipRect();
  ImGui::Dummy({width, h});
}

}  // namespace rl::viewer
