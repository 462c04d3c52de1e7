#pragma once
// Text sizes the layout needs without ImGui: the compact pixel font that writes values, indexes and
// thread numbers into narrow cells (its glyphs are drawn in compact_font.cpp; the advances here are
// theirs), the default ImGui font's fixed metrics, and the value formatting that fits a cell.
#include <string>
#include <string_view>

namespace rl::viewer {

// ImGui's default font (ProggyClean, 13 px): monospaced, 7 px a character.
inline constexpr float kFontCharW = 7.f;
inline constexpr float kFontLineH = 13.f;
inline float text_width(std::string_view s) { return kFontCharW * static_cast<float>(s.size()); }

// The compact font: glyphs 7 px tall; digits 4 px wide with 1 px between them. Characters it does
// not draw are measured as a digit (and drawn by the default font's fallback).
inline constexpr float kCompactH = 7.f;
inline constexpr int kCompactRows = 7;

// One glyph of the compact font: `width` columns of `kCompactRows` rows, '#' lit.
struct CompactGlyph {
  char c;
  int width;
  const char* rows[kCompactRows];
};
// Every glyph the compact font draws.
const CompactGlyph* compact_glyphs(int* count);
float compact_advance(char c);
// Width in pixels of s in the compact font (without the space after the last glyph).
float compact_width(std::string_view s);

// The value as the most significant digits (4 at most) that fit max_width pixels of compact font:
// "-0.3164" does not fit 28 px, "-.3164" does; a small value too narrow for one significant digit
// is rounded to decimals ("-.01"). "NaN" for a value the trace records as null; "" when nothing
// fits.
std::string format_cell_value(double v, float max_width);

}  // namespace rl::viewer
