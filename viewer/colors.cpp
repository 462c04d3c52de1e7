#include "viewer/colors.h"

#include "viewer/palette.h"

#include <algorithm>

namespace rl::viewer {

ImU32 series_color(int index) { return index < 0 ? kTextColor : distinct_colors(index + 1).back(); }

ImU32 warp_color(int warp) {
  static constexpr ImU32 palette[] = {IM_COL32(66, 133, 244, 255), IM_COL32(234, 134, 60, 255),
                                      IM_COL32(52, 168, 83, 255),  IM_COL32(171, 71, 188, 255),
                                      IM_COL32(0, 172, 193, 255),  IM_COL32(200, 80, 100, 255),
                                      IM_COL32(158, 157, 36, 255), IM_COL32(121, 134, 203, 255)};
  return palette[static_cast<unsigned>(warp) % 8];
}

ImU32 greyed(ImU32 c) {
  const int r = static_cast<int>((c >> IM_COL32_R_SHIFT) & 0xFF);
  const int g = static_cast<int>((c >> IM_COL32_G_SHIFT) & 0xFF);
  const int b = static_cast<int>((c >> IM_COL32_B_SHIFT) & 0xFF);
  const int l = (r * 3 + g * 6 + b) / 10;
  auto mix = [&](int ch) { return std::clamp((ch + 2 * l) / 3 * 55 / 100 + 20, 0, 255); };
  return IM_COL32(mix(r), mix(g), mix(b), 255);
}

ImU32 with_alpha(ImU32 c, float alpha) {
  const auto a = static_cast<ImU32>(std::clamp(alpha, 0.f, 1.f) * 255.f);
  return (c & ~IM_COL32_A_MASK) | (a << IM_COL32_A_SHIFT);
}

}  // namespace rl::viewer
