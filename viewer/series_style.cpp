#include "viewer/series_style.h"

namespace rl::viewer {

std::vector<SeriesStyle> series_styles(const std::vector<Series>& series) {
  int lessons = 0;
  for (const auto& s : series) lessons += s.kind == SeriesKind::lesson ? 1 : 0;
  const std::vector<Rgba> colors = distinct_colors(lessons);
  std::vector<SeriesStyle> out;
  int i = 0;
  for (const auto& s : series) {
    SeriesStyle st;
    if (s.kind == SeriesKind::ceiling) {
      st = {kCeilingRgba, true, 2.5f};
    } else if (s.kind == SeriesKind::cub) {
      st = {kCubRgba, true, 2.5f};
    } else {
      st.color = colors[static_cast<std::size_t>(i++)];
      st.thickness = s.variant.empty() ? 2.f : 1.3f;
    }
    out.push_back(st);
  }
  return out;
}

}  // namespace rl::viewer
