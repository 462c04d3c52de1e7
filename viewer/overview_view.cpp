#include "viewer/overview_view.h"

#include <algorithm>
#include <cstdio>

#include "viewer/colors.h"

namespace rl::viewer {
namespace {
constexpr float kRowH = 12.f;
constexpr float kLabelW = 76.f;  // "launch 1  " / "block 0:"
}  // namespace

float overview_height(const Overview& o) {
  return static_cast<float>(o.launches.size() + (o.warps.empty() ? 0 : 1)) * (kRowH + 3.f);
}

OverviewClick draw_overview(const Overview& o, ImVec2 origin, float width) {
  OverviewClick click;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool clicked = ImGui::IsMouseClicked(0) && ImGui::IsWindowHovered();
  const float x0 = origin.x + kLabelW, w = std::max(10.f, width - kLabelW);
  float y = origin.y;
  char buf[64];
  for (const OverviewLaunch& l : o.launches) {
    std::snprintf(buf, sizeof buf, "launch %d", l.launch);
    dl->AddText({origin.x, y - 1}, l.current ? kHighlight : kDimText, buf);
    const float tile_w = w / static_cast<float>(std::max<std::size_t>(1, l.tiles.size()));
    for (std::size_t i = 0; i < l.tiles.size(); ++i) {
      const OverviewTile& t = l.tiles[i];
      const ImVec2 a{x0 + tile_w * static_cast<float>(i), y},
          b{x0 + tile_w * static_cast<float>(i + 1) - (tile_w >= 4 ? 1.f : 0.f), y + kRowH};
      ImU32 fill = l.done ? IM_COL32(70, 74, 90, 255) : IM_COL32(40, 40, 48, 255);
      if (l.current && t.active > 0)
        fill = with_alpha(IM_COL32(255, 200, 90, 255), 0.3f + 0.7f * t.active);
      dl->AddRectFilled(a, b, fill);
      if (t.stale) dl->AddRectFilled({a.x, b.y - 3}, b, kStale);
      if (t.differs) dl->AddRectFilled(a, {b.x, a.y + 3}, kDiffers);
      if (t.focus) dl->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, IM_COL32_WHITE, 0, 0, 2.f);
      if (mouse.x >= a.x && mouse.x < b.x + (tile_w >= 4 ? 1 : 0) && mouse.y >= a.y &&
          mouse.y < b.y) {
        if (t.first_block == t.last_block)
          ImGui::SetTooltip("launch %d, block %d: %.0f%% of its threads work at this step%s%s",
                            l.launch, t.first_block, 100.0 * t.active,
                            t.stale ? "\nholds a stale read" : "",
                            t.differs ? "\nthe first difference is here" : "");
        else
          ImGui::SetTooltip("launch %d, blocks %d-%d (%d a tile at this width)", l.launch,
                            t.first_block, t.last_block, l.blocks_per_tile);
        if (clicked) click.launch = l.launch, click.block = t.first_block;
      }
    }
    y += kRowH + 3.f;
  }
  if (!o.warps.empty()) {
    dl->AddText({origin.x, y - 1}, kDimText, "its warps");
    const float warp_w = std::min(60.f, w / static_cast<float>(o.warps.size()));
    for (const OverviewWarp& wp : o.warps) {
      const ImVec2 a{x0 + warp_w * static_cast<float>(wp.warp), y}, b{a.x + warp_w - 2, y + kRowH};
      dl->AddRectFilled(a, b, IM_COL32(40, 40, 48, 255));
      const float lit = static_cast<float>(wp.active) / static_cast<float>(std::max(1, wp.lanes));
      if (wp.active > 0) dl->AddRectFilled(a, {a.x + (b.x - a.x) * lit, b.y}, warp_color(wp.warp));
      if (wp.in_window)
        dl->AddRect({a.x - 1, a.y - 1}, {b.x + 1, b.y + 1}, IM_COL32_WHITE, 0, 0, 1.5f);
      if (mouse.x >= a.x && mouse.x < b.x + 2 && mouse.y >= a.y && mouse.y < b.y) {
        ImGui::SetTooltip("warp %d: %d of %d lanes work at this step (click to show its columns)",
                          wp.warp, wp.active, wp.lanes);
        if (clicked) click.warp = wp.warp;
      }
    }
  }
  return click;
}

}  // namespace rl::viewer
