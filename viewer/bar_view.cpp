#include "viewer/bar_view.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "viewer/bar_layout.h"
#include "viewer/colors.h"
#include "viewer/series_style.h"

namespace rl::viewer {

void BarView::draw(const RunResults& d, ImVec2 size) {
  const std::vector<double> sizes = sizes_of(d.series);
  if (sizes.empty()) {
    ImGui::TextUnformatted(
        "No one-GPU results for this device. Load a results JSON with the path box above.");
    return;
  }
  if (std::find(sizes.begin(), sizes.end(), chosen_n) == sizes.end()) {
    // Prefer 2^24 (the lessons' headline size) when measured, else the largest.
    chosen_n = std::find(sizes.begin(), sizes.end(), 16777216.0) != sizes.end() ? 16777216.0
                                                                                : sizes.back();
  }
  ImGui::SetNextItemWidth(160);
  if (ImGui::BeginCombo("n", (format_size(chosen_n) + "  (" +
                              std::to_string(static_cast<long long>(chosen_n)) + ")")
                                 .c_str())) {
    for (double n : sizes) {
      if (ImGui::Selectable(format_size(n).c_str(), n == chosen_n)) chosen_n = n;
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("variants", &variants);
  ImGui::SameLine();
  ImGui::TextColored(
      ImVec4(0.65f, 0.65f, 0.7f, 1),
      "bar length: %% of the streaming-read ceiling at this n; label: speed-up over lesson 01");

  // The colour of each lesson's bar is its line's on the throughput plot.
  const std::vector<SeriesStyle> styles = series_styles(d.series);
  auto color_of = [&](const std::string& label) {
    for (std::size_t i = 0; i < d.series.size(); ++i)
      if (d.series[i].label == label) return styles[i].color;
    return kTextColor;
  };
  const std::vector<Bar> bars = bars_at(d.series, chosen_n, variants);
  std::vector<std::string> texts;
  float name_w = 0, text_w = 0;
  double longest = 0;
  bool any_bound = false;
  for (const auto& b : bars) {
    char buf[112];
    // "*": launch-bound, the host's launches set the time (lesson 00); the tooltip says more.
    const char* mark = b.launch_bound ? " *" : "";
    any_bound = any_bound || b.launch_bound;
    if (b.speedup > 0)
      std::snprintf(buf, sizeof buf, "%.1fx over 01   %.0f%% of ceiling   %.0f GB/s%s", b.speedup,
                    b.pct_of_ceiling, b.gbps, mark);
    else
      std::snprintf(buf, sizeof buf, "%.0f%% of ceiling   %.0f GB/s%s", b.pct_of_ceiling, b.gbps,
                    mark);
    texts.emplace_back(buf);
    name_w = std::max(name_w, ImGui::CalcTextSize(b.label.c_str()).x);
    text_w = std::max(text_w, ImGui::CalcTextSize(buf).x);
    longest = std::max(longest, b.pct_of_ceiling);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const BarLayout lay = bar_layout(origin.x, size.x, name_w, text_w, longest, 100.0);
  // Room under the bars for the axis labels, and for the launch-bound note where one is marked.
  const float note_h = any_bound ? ImGui::GetTextLineHeightWithSpacing() : 0.f;
  const float avail_h = std::max(100.f, ImGui::GetContentRegionAvail().y - 24.f - note_h);
  const float row_h =
      std::clamp(avail_h / static_cast<float>(std::max<std::size_t>(1, bars.size())), 18.f, 40.f);
  const float text_h = ImGui::GetTextLineHeight();
  const float total_h = row_h * static_cast<float>(bars.size());
  auto x_of = [&](double pct) {
    return lay.bar_x + lay.full * static_cast<float>(pct / lay.scale);
  };

  // 25/50/75/100% guides first, under the bars and their figures.
  for (int pct = 0; pct <= 100; pct += 25) {
    const float x = x_of(pct);
    dl->AddLine({x, origin.y}, {x, origin.y + total_h}, kGridColor);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%d%%", pct);
    dl->AddText({x - ImGui::CalcTextSize(buf).x / 2, origin.y + total_h + 2}, kAxisColor, buf);
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const float y = origin.y + row_h * static_cast<float>(i);
    dl->AddText({origin.x + 4, y + (row_h - text_h) / 2}, kTextColor, b.label.c_str());
    const ImVec2 a{lay.bar_x, y + 3}, c{x_of(std::max(0.0, b.pct_of_ceiling)), y + row_h - 3};
    dl->AddRectFilled(a, c, color_of(b.label));
    // The figure on the canvas colour, so that no guide runs through it.
    const ImVec2 tp{c.x + 8, y + (row_h - text_h) / 2}, ts = ImGui::CalcTextSize(texts[i].c_str());
    dl->AddRectFilled({tp.x - 3, tp.y - 1}, {tp.x + ts.x + 3, tp.y + ts.y + 1}, kCanvasColor);
    dl->AddText(tp, kTextColor, texts[i].c_str());
    if (ImGui::IsMouseHoveringRect({origin.x, y}, {origin.x + size.x, y + row_h})) {
      const std::string times = bar_times_text(b);
      ImGui::SetTooltip("%s\n%s\n%.2f GB/s at n = %s on %s%s", b.label.c_str(), b.title.c_str(),
                        b.gbps, format_size(chosen_n).c_str(), d.device.c_str(), times.c_str());
    }
  }
  ImGui::Dummy({size.x, total_h + text_h + 6});
  if (any_bound)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kAxisColor),
                       "* launch-bound: the GPU ran the call's kernels for under 80%% of its time "
                       "(device time); the host's launches set the pace (lesson 15)");
}

}  // namespace rl::viewer
