#pragma once
// The plots' colours without ImGui, so that "one colour per series" is a unit test: packed as
// ImGui's IM_COL32 (R in the low byte, then G, B, A).
#include <cstdint>
#include <vector>

namespace rl::viewer {

using Rgba = std::uint32_t;

constexpr Rgba rgba(unsigned r, unsigned g, unsigned b, unsigned a = 255) {
  return static_cast<Rgba>(r | g << 8 | b << 16 | a << 24);
}

// Reserved for the reference lines every throughput plot may draw.
inline constexpr Rgba kCeilingRgba = rgba(240, 240, 240);
inline constexpr Rgba kCubRgba = rgba(255, 215, 0);

// `count` colours, no two the same and none a reserved one: a fixed palette picked to be told apart
// on the dark canvas, then (past it) the same hues at other brightness.
std::vector<Rgba> distinct_colors(int count);

// The distance between two colours in RGB space (0..441).
double color_distance(Rgba a, Rgba b);

}  // namespace rl::viewer
