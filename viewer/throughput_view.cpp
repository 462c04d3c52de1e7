#include "viewer/throughput_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "viewer/colors.h"
#include "viewer/counter_layout.h"
#include "viewer/counters_view.h"
#include "viewer/series_style.h"

namespace rl::viewer {
namespace {

constexpr float kTooltipW = 640.f;  // counters in a tooltip wrap at this width

bool profiled(const std::vector<ProfileFile>& profiles, const std::string& device) {
  return std::any_of(profiles.begin(), profiles.end(),
                     [&](const ProfileFile& f) { return f.device == device; });
}

ProfileMatch match(const std::vector<ProfileFile>& profiles, const std::string& device,
                   const Series& s, const SeriesPoint& p) {
  if (s.kind != SeriesKind::lesson) return {};
  return find_profiled(profiles, device, s.lesson, s.variant, p.n, p.block);
}

}  // namespace

std::string ThroughputView::select(const RunResults& d, const std::vector<ProfileFile>& profiles,
                                   int lesson, const std::string& variant, double n) {
  for (const Series& s : d.series) {
    if (s.kind != SeriesKind::lesson || s.lesson != lesson || s.variant != variant ||
        s.points.empty())
      continue;
    const SeriesPoint* pick = &s.points.back();
    if (n > 0) {
      pick = nullptr;
      for (const SeriesPoint& p : s.points)
        if (p.n == n) pick = &p;
      if (!pick) return s.label + " has no point at n = " + format_size(n) + " on " + d.device;
    } else if (const ProfileMatch m = match(profiles, d.device, s, s.points.back()); m.call) {
      // The point nearest the profiled size, on a log scale.
      for (const SeriesPoint& p : s.points)
        if (std::abs(std::log2(p.n / m.call->n)) < std::abs(std::log2(pick->n / m.call->n)))
          pick = &p;
    }
    plot_.selected_label = s.label;
    plot_.selected_x = pick->n;
    return "";
  }
  char num[8];
  std::snprintf(num, sizeof num, "%02d", lesson);
  return std::string("no throughput series of lesson ") + num +
         (variant.empty() ? "" : " / " + variant) + " on " + d.device;
}

void ThroughputView::draw(const RunResults& d, ImVec2 size,
                          const std::vector<ProfileFile>& profiles) {
  if (d.series.empty()) {
    ImGui::TextUnformatted(
        "No one-GPU results for this device. Load a results JSON (reducelab bench --json FILE) "
        "with the path box above.");
    return;
  }
  const bool counters = profiled(profiles, d.device);
  ImGui::TextColored(ImVec4(0.65f, 0.65f, 0.7f, 1), "%s",
                     counters ? "Input bytes / median time of each rung. Click a legend entry to "
                                "hide or show it; hover a point for its figures, click it for its "
                                "hardware counters."
                              : "Input bytes / median time of each rung. Click a legend entry to "
                                "hide or show it; hover a point for its figures.");
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
      std::string note;
      if (s.kind == SeriesKind::lesson) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%.1f%% of ceiling, %.2fx CUB, %.4f ms%s", p.pct_of_ceiling,
                      p.vs_cub, p.median_ms, p.verified ? "" : "  NOT VERIFIED");
        note = buf;
      }
      if (const ProfileMatch m = counters ? match(profiles, d.device, s, p) : ProfileMatch{};
          m.call) {
        for (const TextLine& t :
             layout_paragraphs(point_counter_text(*m.file, *m.call, p.n), kTooltipW))
          note += "\n" + t.text;
      }
      l.notes.push_back(std::move(note));
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
  // Under the plot: the selected point's counters (or how to select one).
  std::vector<TextLine> panel;
  if (counters) {
    const Series* sel = nullptr;
    const SeriesPoint* point = nullptr;
    for (const Series& s : d.series) {
      if (s.label != plot_.selected_label) continue;
      for (const SeriesPoint& p : s.points)
        if (p.n == plot_.selected_x) sel = &s, point = &p;
    }
    const ProfileMatch m = sel ? match(profiles, d.device, *sel, *point) : ProfileMatch{};
    if (m.call)
      panel = layout_paragraphs(point_counter_text(*m.file, *m.call, point->n), size.x);
    else if (sel)
      panel.push_back(
          {"No counters of " + sel->label + " on " + d.device + " in the profiles loaded.",
           PanelStyle::dim});
    else
      panel.push_back(
          {"Click a lesson's point for the counters Nsight Compute measured for its "
           "kernel on " +
               d.device + ".",
           PanelStyle::dim});
  }
  const float panel_h = kPanelLineH * static_cast<float>(panel.size());
  plot_.draw("throughput",
             ImVec2(size.x, ImGui::GetContentRegionAvail().y - (panel.empty() ? 0 : panel_h + 6)),
             lines, opt);
  if (!panel.empty()) draw_text_lines(panel, size.x);
}

}  // namespace rl::viewer
