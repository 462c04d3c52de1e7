#include "viewer/palette.h"

#include <algorithm>
#include <cmath>

namespace rl::viewer {
namespace {

// Twenty hues that stay apart on a dark background (and from the white ceiling and the gold CUB).
constexpr Rgba kPalette[] = {
    rgba(230, 75, 60),   rgba(80, 150, 255),  rgba(90, 200, 90),   rgba(250, 150, 40),
    rgba(190, 110, 240), rgba(40, 210, 210),  rgba(245, 110, 185), rgba(170, 170, 50),
    rgba(180, 120, 75),  rgba(150, 190, 255), rgba(170, 235, 130), rgba(255, 160, 140),
    rgba(120, 100, 220), rgba(30, 150, 120),  rgba(225, 200, 150), rgba(200, 40, 110),
    rgba(120, 150, 80),  rgba(255, 200, 235), rgba(150, 150, 165), rgba(0, 110, 200),
};
constexpr int kPaletteSize = static_cast<int>(sizeof kPalette / sizeof kPalette[0]);

unsigned channel(Rgba c, int shift) { return (c >> shift) & 0xFFu; }

}  // namespace

double color_distance(Rgba a, Rgba b) {
  double d = 0;
  for (int shift : {0, 8, 16}) {
    const double x =
        static_cast<double>(channel(a, shift)) - static_cast<double>(channel(b, shift));
    d += x * x;
  }
  return std::sqrt(d);
}

std::vector<Rgba> distinct_colors(int count) {
  std::vector<Rgba> out;
  for (int i = 0; i < count; ++i) {
    Rgba base = kPalette[i % kPaletteSize];
    const int round = i / kPaletteSize;
    if (round > 0) {
      // Past the palette: the same hue, darker or lighter each round, nudged until unused.
      const double scale = round % 2 ? 0.65 / round : 1.0 + 0.25 * round;
      unsigned rgb[3];
      for (int k = 0; k < 3; ++k)
        rgb[k] = static_cast<unsigned>(
            std::clamp(static_cast<double>(channel(base, 8 * k)) * scale, 20.0, 255.0));
      base = rgba(rgb[0], rgb[1], rgb[2]);
      while (std::find(out.begin(), out.end(), base) != out.end() || base == kCeilingRgba ||
             base == kCubRgba) {
        base = rgba((channel(base, 0) + 7) % 256, channel(base, 8), (channel(base, 16) + 13) % 256);
      }
    }
    out.push_back(base);
  }
  return out;
}

}  // namespace rl::viewer
