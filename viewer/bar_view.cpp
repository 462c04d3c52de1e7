#include "viewer/bar_view.h"

#include <algorithm>
#include <cstdio>

#include "viewer/colors.h"

namespace rl::viewer {

void BarView::draw(const std::vector<Series>& series, ImVec2 size) {
  const std::vector<double> sizes = sizes_of(series);
  if (sizes.empty()) {
    ImGui::TextUnformatted("No results loaded. Load a results JSON with the path box above.");
    return;
  }
  if (std::find(sizes.begin(), sizes.end(), chosen_n) == sizes.end()) {
    // Prefer 2^24 (the lessons' headline size) when measured, else the largest.
    chosen_n = std::find(sizes.begin(), sizes.end(), 16777216.0) != sizes.end() ? 16777216.0 : sizes.back();
  }
  ImGui::SetNextItemWidth(160);
  if (ImGui::BeginCombo("n", (format_size(chosen_n) + "  (" + std::to_string(static_cast<long long>(chosen_n)) + ")").c_str())) {
    for (double n : sizes) {
      if (ImGui::Selectable(format_size(n).c_str(), n == chosen_n)) chosen_n = n;
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("variants", &variants);
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.7f, 1), "bar length: %% of the streaming-read ceiling at this n; label: speed-up over lesson 01");

  const std::vector<Bar> bars = bars_at(series, chosen_n, variants);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail_h = std::max(100.f, ImGui::GetContentRegionAvail().y);
  const float row_h = std::clamp(avail_h / static_cast<float>(std::max<std::size_t>(1, bars.size())), 18.f, 40.f);
  float label_w = 0;
  for (const auto& b : bars) label_w = std::max(label_w, ImGui::CalcTextSize(b.label.c_str()).x);
  const float bar_x = origin.x + label_w + 16.f;
  const float bar_w = std::max(100.f, size.x - label_w - 260.f);
  const float text_h = ImGui::GetTextLineHeight();

  // 25/50/75/100% guides.
  const float total_h = row_h * static_cast<float>(bars.size());
  for (int pct = 0; pct <= 100; pct += 25) {
    const float x = bar_x + bar_w * static_cast<float>(pct) / 100.f;
    dl->AddLine({x, origin.y}, {x, origin.y + total_h}, kGridColor);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%d%%", pct);
    dl->AddText({x - 10, origin.y + total_h + 2}, kAxisColor, buf);
  }
  int i = 0;
  for (const auto& b : bars) {
    const float y = origin.y + row_h * static_cast<float>(i);
    dl->AddText({origin.x + 4, y + (row_h - text_h) / 2}, kTextColor, b.label.c_str());
    const float w = bar_w * static_cast<float>(std::clamp(b.pct_of_ceiling, 0.0, 110.0) / 100.0);
    const ImVec2 a{bar_x, y + 3}, c{bar_x + w, y + row_h - 3};
    dl->AddRectFilled(a, c, series_color(i));
    char buf[96];
    if (b.speedup > 0) std::snprintf(buf, sizeof buf, "%.1fx over 01   %.0f%% of ceiling   %.0f GB/s", b.speedup, b.pct_of_ceiling, b.gbps);
    else std::snprintf(buf, sizeof buf, "%.0f%% of ceiling   %.0f GB/s", b.pct_of_ceiling, b.gbps);
    dl->AddText({c.x + 8, y + (row_h - text_h) / 2}, kTextColor, buf);
    if (ImGui::IsMouseHoveringRect({origin.x, y}, {origin.x + size.x, y + row_h})) {
      ImGui::SetTooltip("%s\n%s\n%.2f GB/s at n = %s", b.label.c_str(), b.title.c_str(), b.gbps, format_size(chosen_n).c_str());
    }
    ++i;
  }
  ImGui::Dummy({size.x, total_h + text_h + 6});
}

}  // namespace rl::viewer
