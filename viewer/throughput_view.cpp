#include "viewer/throughput_view.h"

#include <cstdio>

#include "viewer/colors.h"

namespace rl::viewer {

void ThroughputView::draw(const std::vector<ResultsFile>& files, const std::vector<Series>& series, ImVec2 size) {
  if (series.empty()) {
    ImGui::TextUnformatted("No results loaded. Load a results JSON (reducelab ladder --json FILE) with the path box above.");
    return;
  }
  std::string devices;
  std::optional<double> peak;
  for (const auto& f : files) {
    if (!devices.empty()) devices += ", ";
    devices += f.device.empty() ? f.backend : f.device;
    if (f.theoretical_gbps) peak = f.theoretical_gbps;
  }
  ImGui::Text("Throughput of each rung: input bytes / median time.  Device: %s", devices.c_str());
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.7f, 1), "Click a legend entry to hide or show it; hover a point for its figures.");

  std::vector<PlotLine> lines;
  int lesson_index = 0;
  for (const auto& s : series) {
    PlotLine l;
    l.label = s.label;
    if (s.kind == SeriesKind::ceiling) {
      l.color = IM_COL32(240, 240, 240, 255);
      l.dashed = true;
      l.thickness = 2.5f;
    } else if (s.kind == SeriesKind::cub) {
      l.color = IM_COL32(255, 215, 0, 255);
      l.dashed = true;
      l.thickness = 2.5f;
    } else {
      l.color = series_color(lesson_index++);
      l.thickness = s.variant.empty() ? 2.f : 1.2f;
    }
    for (const auto& p : s.points) {
      l.xs.push_back(p.n);
      l.ys.push_back(p.gbps);
      char note[160] = "";
      if (s.kind == SeriesKind::lesson) {
        std::snprintf(note, sizeof note, "%.1f%% of ceiling, %.2fx CUB, %.4f ms%s", p.pct_of_ceiling, p.vs_cub,
                      p.median_ms, p.verified ? "" : "  NOT VERIFIED");
      }
      l.notes.emplace_back(note);
    }
    lines.push_back(std::move(l));
  }
  PlotOptions opt;
  if (peak) {
    opt.reference_y = *peak;
    char buf[96];
    std::snprintf(buf, sizeof buf, "DRAM peak %.0f GB/s (theoretical)", *peak);
    opt.reference_label = buf;
  }
  plot_.draw("throughput", ImVec2(size.x, ImGui::GetContentRegionAvail().y), lines, opt);
}

}  // namespace rl::viewer
