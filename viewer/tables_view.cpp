#include "viewer/tables_view.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "viewer/bar_layout.h"
#include "viewer/colors.h"
#include "viewer/palette.h"

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

std::string figure_text(const ComparisonRow& r) {
  char gb[32];
  if (r.gbps)
    std::snprintf(gb, sizeof gb, "%.0f GB/s   ", *r.gbps);
  else
    std::snprintf(gb, sizeof gb, "simulated   ");
  return gb + ratios(r);
}

}  // namespace

void TablesView::draw(const std::vector<const LessonTable*>& tables, ImVec2 size) {
  if (tables.empty()) {
    ImGui::TextUnformatted("No lesson tables loaded. Lessons 18-21 write one with --json FILE.");
    return;
  }
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.7f, 1),
                     "bar length: GB/s of input read (the longest bar of each table is the full "
                     "width); after it: ratios "
                     "measured in the same run (> 1: faster than the library)");
  ImGui::BeginChild("tables", {size.x, std::max(50.f, ImGui::GetContentRegionAvail().y)}, false);
  const float width = ImGui::GetContentRegionAvail().x;
  const float text_h = ImGui::GetTextLineHeight();
  const float row_h = text_h + 6.f;
  const std::vector<Rgba> colors = distinct_colors(static_cast<int>(tables.size()));
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const LessonTable& f = *tables[t];
    ImGui::Separator();
    const std::string file = std::filesystem::path(f.path).filename().string();
    const std::string what = f.lesson ? "Lesson " + std::to_string(f.lesson) : f.schema;
    ImGui::Text("%s on %s", what.c_str(), f.device.empty() ? f.backend.c_str() : f.device.c_str());
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "(%s%s%s, %s)", file.c_str(),
                       f.part.empty() ? "" : ": ", f.part.c_str(), f.schema.c_str());
    double most = 0;
    float name_w = 0, text_w = 0;
    for (const auto& r : f.rows) {
      most = std::max(most, r.gbps.value_or(0.0));
      name_w = std::max(name_w, ImGui::CalcTextSize(r.label.c_str()).x);
      text_w = std::max(text_w, ImGui::CalcTextSize(figure_text(r).c_str()).x);
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const BarLayout lay = bar_layout(origin.x, width, name_w, text_w, most, 0.0);
    for (std::size_t i = 0; i < f.rows.size(); ++i) {
      const ComparisonRow& r = f.rows[i];
      const float y = origin.y + row_h * static_cast<float>(i);
      dl->AddText({origin.x + 4, y + 3}, kTextColor, r.label.c_str());
      float end = lay.bar_x;
      if (r.gbps && most > 0) {
        end = lay.bar_x + lay.full * static_cast<float>(*r.gbps / lay.scale);
        dl->AddRectFilled({lay.bar_x, y + 2}, {end, y + row_h - 2}, colors[t]);
      }
      dl->AddText({end + 8, y + 3}, r.verified ? kTextColor : kErrorColor, figure_text(r).c_str());
    }
    ImGui::Dummy({width, row_h * static_cast<float>(f.rows.size()) + 4});
  }
  ImGui::EndChild();
}

}  // namespace rl::viewer
