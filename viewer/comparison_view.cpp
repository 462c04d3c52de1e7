#include "viewer/comparison_view.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "viewer/colors.h"

namespace rl::viewer {
namespace {

// "x CUB 1.01   x torch 1.30   98% of sum": the ratios a run has, in a fixed order.
std::string ratios(const ComparisonRow& r) {
  std::string s;
  char buf[48];
  auto add = [&](const char* name, const std::optional<double>& v, const char* fmt) {
    if (!v) return;
    std::snprintf(buf, sizeof buf, fmt, name, *v);
    s += buf;
  };
  add("x CUB", r.vs_cub, "%s %.2f   ");
  add("x torch", r.vs_torch, "%s %.2f   ");
  add("x best", r.vs_best, "%s %.2f   ");
  add("of sum", r.pct_of_sum, "%2$.0f%% %1$s   ");
  if (!r.verified) s += "NOT VERIFIED";
  return s;
}

}  // namespace

void ComparisonView::draw(const std::vector<ComparisonFile>& files, ImVec2 size) {
  if (files.empty()) {
    ImGui::TextUnformatted("No lesson tables loaded. Lessons 13-16 write one with --json FILE.");
    return;
  }
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.7f, 1),
                     "bar length: GB/s of input read (longest bar of each table = full width); label: ratios "
                     "measured in the same run (> 1: faster than the library)");
  const float text_h = ImGui::GetTextLineHeight();
  const float row_h = text_h + 6.f;
  int colour = 0;
  for (const ComparisonFile& f : files) {
    ImGui::Separator();
    ImGui::Text("%s   (%s, %s)", f.path.c_str(), f.schema.c_str(), f.device.empty() ? f.backend.c_str() : f.device.c_str());
    double most = 0;
    float label_w = 0;
    for (const auto& r : f.rows) {
      most = std::max(most, r.gbps.value_or(0.0));
      label_w = std::max(label_w, ImGui::CalcTextSize(r.label.c_str()).x);
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float bar_x = origin.x + label_w + 16.f;
    const float bar_w = std::max(80.f, (size.x - label_w) * 0.45f);
    int i = 0;
    for (const auto& r : f.rows) {
      const float y = origin.y + row_h * static_cast<float>(i++);
      dl->AddText({origin.x + 4, y + 3}, kTextColor, r.label.c_str());
      float end = bar_x;
      if (r.gbps && most > 0) {
        end = bar_x + bar_w * static_cast<float>(*r.gbps / most);
        dl->AddRectFilled({bar_x, y + 2}, {end, y + row_h - 2}, series_color(colour));
      }
      char gb[32];
      if (r.gbps) std::snprintf(gb, sizeof gb, "%.0f GB/s   ", *r.gbps);
      else std::snprintf(gb, sizeof gb, "simulated   ");
      dl->AddText({end + 8, y + 3}, r.verified ? kTextColor : kErrorColor, (gb + ratios(r)).c_str());
    }
    ImGui::Dummy({size.x, row_h * static_cast<float>(f.rows.size()) + 4});
    ++colour;
  }
}

}  // namespace rl::viewer
