#include "viewer/throughput_view.h"

#include <cstdio>

#include "viewer/colors.h"
#include "viewer/series_style.h"

namespace rl::viewer {

void ThroughputView::draw(const DeviceResults& d, ImVec2 size) {
  if (d.series.empty()) {
    ImGui::TextUnformatted(
        "No one-GPU results for this device. Load a results JSON (reducelab bench --json FILE) "
        "with the path box above.");
    return;
  }
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.7f, 1),
                     "Input bytes / median time of each rung. Click a legend entry to hide or show "
                     "it; hover a point for its figures.");
  const std::vector<SeriesStyle> styles = series_styles(d.series);
  std::vector<PlotLine> lines;
  for (std::size_t i = 0; i < d.series.size(); ++i) {
    const Series& s = d.series[i];
    PlotLine l;
    l.label = s.label;
    l.color = styles[i].color;
    l.dashed = styles[i].dashed;
    l.thickness = styles[i].thickness;
    for (const auto& p : s.points) {
      l.xs.push_back(p.n);
      l.ys.push_back(p.gbps);
      char note[160] = "";
      if (s.kind == SeriesKind::lesson) {
        std::snprintf(note, sizeof note, "%.1f%% of ceiling, %.2fx CUB, %.4f ms%s",
                      p.pct_of_ceiling, p.vs_cub, p.median_ms, p.verified ? "" : "  NOT VERIFIED");
      }
      l.notes.emplace_back(note);
    }
    lines.push_back(std::move(l));
  }
  PlotOptions opt;
  if (d.peak) {
    opt.reference_y = *d.peak;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s DRAM peak %.0f GB/s (theoretical)", d.device.c_str(),
                  *d.peak);
    opt.reference_label = buf;
  }
  plot_.draw("throughput", ImVec2(size.x, ImGui::GetContentRegionAvail().y), lines, opt);
}

}  // namespace rl::viewer
