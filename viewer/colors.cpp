#include "viewer/colors.h"

#include <algorithm>

namespace rl::viewer {

namespace {
ImU32 hsv(float h, float s, float v) {
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(h, s, v, r, g, b);
  return IM_COL32(static_cast<int>(r * 255), static_cast<int>(g * 255), static_cast<int>(b * 255), 255);
}
}  // namespace

ImU32 series_color(int index) {
  // Golden-ratio hue steps keep neighbours apart; alternate brightness for more distinct pairs.
  const float h = static_cast<float>(index) * 0.618034f;
  return hsv(h - static_cast<float>(static_cast<int>(h)), index % 2 ? 0.55f : 0.75f, index % 2 ? 1.0f : 0.9f);
}

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
