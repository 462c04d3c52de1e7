#pragma once
// The viewer's palette in one place.
#include <imgui.h>

namespace rl::viewer {

// the index-th of distinct_colors (palette.h): no two alike on one plot
ImU32 series_color(int index);
ImU32 warp_color(int warp);  // node fill by warp
ImU32 greyed(ImU32 color);   // desaturated and dimmed
ImU32 with_alpha(ImU32 color, float alpha);

inline constexpr ImU32 kTextColor = IM_COL32(230, 230, 235, 255);
inline constexpr ImU32 kDimText = IM_COL32(150, 150, 160, 255);
inline constexpr ImU32 kGridColor = IM_COL32(70, 70, 80, 255);
inline constexpr ImU32 kAxisColor = IM_COL32(160, 160, 170, 255);
inline constexpr ImU32 kCanvasColor = IM_COL32(24, 24, 30, 255);
inline constexpr ImU32 kErrorColor = IM_COL32(160, 40, 40, 255);
inline constexpr ImU32 kHighlight = IM_COL32(255, 210, 80, 255);
// a read the trace does not explain
inline constexpr ImU32 kUnexplained = IM_COL32(255, 140, 40, 255);
// a stale read, and a bank conflict's edge
inline constexpr ImU32 kStale = IM_COL32(255, 70, 60, 255);
// the first difference between two traces
inline constexpr ImU32 kDiffers = IM_COL32(255, 80, 255, 255);

}  // namespace rl::viewer
