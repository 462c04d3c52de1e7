#include "viewer/scaling_view.h"

#include <algorithm>
#include <cstdio>

#include "viewer/palette.h"

namespace rl::viewer {

void ScalingView::draw(const RunResults& d, ImVec2 size) {
  if (d.scaling.empty()) {
    ImGui::TextUnformatted(
        "No several-GPU results for this device. Lesson 22 writes them (reducelab scaling --json "
        "FILE).");
    return;
  }
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.7f, 1),
                     "Lesson 22 on up to %d x %s: each GPU reduces its share, then one NCCL "
                     "all-reduce. Aggregate GB/s: all "
                     "GPUs' input bytes / the median time.",
                     d.max_gpus, d.device.c_str());
  const std::vector<Rgba> colors = distinct_colors(2);
  const ScalingPoint* one = nullptr;
  for (const auto& p : d.scaling)
    if (p.gpus == 1) one = &p;
  PlotLine measured{"measured", colors[0], {}, {}, {}, false, 2.5f};
  PlotLine ideal{"ideal: GPUs x the one-GPU rate", kCeilingRgba, {}, {}, {}, true, 1.5f};
  PlotLine eff{"scaling efficiency", colors[1], {}, {}, {}, false, 2.5f};
  for (const auto& p : d.scaling) {
    char note[96];
    std::snprintf(note, sizeof note, "n = %.0f, %s", p.n, p.verified ? "verified" : "NOT VERIFIED");
    measured.xs.push_back(p.gpus);
    measured.ys.push_back(p.gbps);
    measured.notes.emplace_back(note);
    if (one) {
      ideal.xs.push_back(p.gpus);
      ideal.ys.push_back(one->gbps * p.gpus);
      ideal.notes.emplace_back("");
    }
    if (p.efficiency >= 0) {
      eff.xs.push_back(p.gpus);
      eff.ys.push_back(100.0 * p.efficiency);
      eff.notes.emplace_back(note);
    }
  }
  const float table_h =
      ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(d.scaling.size() + 2);
  const float plot_h = std::max(160.f, ImGui::GetContentRegionAvail().y - table_h - 8);
  const float half = (size.x - 12) / 2;
  PlotOptions rate_opt;
  rate_opt.x_label = "GPUs";
  rate_opt.x_counts = true;
  rate_opt.point_unit = "GPUs";
  if (d.peak) {
    rate_opt.reference_y = *d.peak;
    char buf[96];
    std::snprintf(buf, sizeof buf, "peak of one GPU: %.0f GB/s", *d.peak);
    rate_opt.reference_label = buf;
    rate_opt.reference_label_right = true;
  }
  std::vector<PlotLine> rate_lines{measured};
  if (one) rate_lines.push_back(ideal);
  rate_.draw("rate", {half, plot_h}, rate_lines, rate_opt);
  ImGui::SameLine(0, 12);
  PlotOptions eff_opt;
  eff_opt.x_label = "GPUs";
  eff_opt.y_label = "% of ideal";
  eff_opt.x_counts = true;
  eff_opt.point_unit = "GPUs";
  eff_opt.y_top = 100;
  efficiency_.draw("efficiency", {half, plot_h}, {eff}, eff_opt);

  if (ImGui::BeginTable("scaling", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"GPUs", "n", "aggregate GB/s", "GB/s per GPU", "efficiency"})
      ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& p : d.scaling) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%d", p.gpus);
      ImGui::TableNextColumn();
      ImGui::Text("%s", format_size(p.n).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", p.gbps);
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", p.gbps / p.gpus);
      ImGui::TableNextColumn();
      if (p.efficiency >= 0)
        ImGui::Text("%.1f%%", 100.0 * p.efficiency);
      else
        ImGui::TextUnformatted("-");
    }
    ImGui::EndTable();
  }
}

}  // namespace rl::viewer
