#include "viewer/cell_text.h"

#include <cmath>
#include <cstdio>

namespace rl::viewer {

namespace {

// Digits, signs and the lower case a trace's labels need ("t12", "b3", "scratch[0]=1.5", "NaN"),
// drawn for 7 px; a glyph is followed by one blank column.
constexpr CompactGlyph kGlyphs[] = {
    {'0', 4, {".##.", "#..#", "#..#", "#..#", "#..#", "#..#", ".##."}},
    {'1', 4, {".#..", "##..", ".#..", ".#..", ".#..", ".#..", "###."}},
    {'2', 4, {".##.", "#..#", "...#", "..#.", ".#..", "#...", "####"}},
    {'3', 4, {"###.", "...#", "...#", ".##.", "...#", "...#", "###."}},
    {'4', 4, {"..#.", ".##.", "#.#.", "#.#.", "####", "..#.", "..#."}},
    {'5', 4, {"####", "#...", "###.", "...#", "...#", "#..#", ".##."}},
    {'6', 4, {".##.", "#...", "#...", "###.", "#..#", "#..#", ".##."}},
    {'7', 4, {"####", "...#", "..#.", "..#.", ".#..", ".#..", ".#.."}},
    {'8', 4, {".##.", "#..#", "#..#", ".##.", "#..#", "#..#", ".##."}},
    {'9', 4, {".##.", "#..#", "#..#", ".###", "...#", "...#", ".##."}},
    {'-', 3, {"...", "...", "...", "###", "...", "...", "..."}},
    {'+', 3, {"...", "...", ".#.", "###", ".#.", "...", "..."}},
    {'=', 3, {"...", "...", "###", "...", "###", "...", "..."}},
    {'.', 1, {".", ".", ".", ".", ".", ".", "#"}},
    {':', 1, {".", ".", "#", ".", ".", "#", "."}},
    {'[', 2, {"##", "#.", "#.", "#.", "#.", "#.", "##"}},
    {']', 2, {"##", ".#", ".#", ".#", ".#", ".#", "##"}},
    {' ', 2, {"..", "..", "..", "..", "..", "..", ".."}},
    {'?', 4, {".##.", "#..#", "...#", "..#.", ".#..", "....", ".#.."}},
    {'N', 4, {"#..#", "##.#", "##.#", "#.##", "#.##", "#..#", "#..#"}},
    {'a', 4, {"....", "....", ".##.", "...#", ".###", "#..#", ".###"}},
    {'b', 4, {"#...", "#...", "###.", "#..#", "#..#", "#..#", "###."}},
    {'c', 4, {"....", "....", ".##.", "#...", "#...", "#...", ".##."}},
    {'d', 4, {"...#", "...#", ".###", "#..#", "#..#", "#..#", ".###"}},
    {'e', 4, {"....", "....", ".##.", "#..#", "####", "#...", ".###"}},
    {'f', 3, {".##", "#..", "###", "#..", "#..", "#..", "#.."}},
    {'g', 4, {"....", "....", ".###", "#..#", ".###", "...#", ".##."}},
    {'h', 4, {"#...", "#...", "###.", "#..#", "#..#", "#..#", "#..#"}},
    {'i', 1, {"#", ".", "#", "#", "#", "#", "#"}},
    {'k', 4, {"#...", "#..#", "#.#.", "##..", "#.#.", "#..#", "#..#"}},
    {'l', 1, {"#", "#", "#", "#", "#", "#", "#"}},
    {'m', 5, {".....", ".....", "##.#.", "#.#.#", "#.#.#", "#.#.#", "#.#.#"}},
    {'n', 4, {"....", "....", "###.", "#..#", "#..#", "#..#", "#..#"}},
    {'o', 4, {"....", "....", ".##.", "#..#", "#..#", "#..#", ".##."}},
    {'p', 4, {"....", "....", "###.", "#..#", "###.", "#...", "#..."}},
    {'r', 3, {"...", "...", "#.#", "##.", "#..", "#..", "#.."}},
    {'s', 4, {"....", "....", ".###", "#...", ".##.", "...#", "###."}},
    {'t', 3, {".#.", ".#.", "###", ".#.", ".#.", ".#.", "..#"}},
    {'u', 4, {"....", "....", "#..#", "#..#", "#..#", "#..#", ".###"}},
    {'w', 5, {".....", ".....", "#...#", "#...#", "#.#.#", "#.#.#", ".#.#."}},
    {'x', 3, {"...", "...", "#.#", "#.#", ".#.", "#.#", "#.#"}},
    {'y', 4, {"....", "....", "#..#", "#..#", ".###", "...#", ".##."}},
};

}  // namespace

const CompactGlyph* compact_glyphs(int* count) {
  *count = static_cast<int>(sizeof kGlyphs / sizeof kGlyphs[0]);
  return kGlyphs;
}

float compact_advance(char c) {
  for (const CompactGlyph& g : kGlyphs)
    if (g.c == c) return static_cast<float>(g.width + 1);
  return 5.f;
}

float compact_width(std::string_view s) {
  float w = 0;
  for (char c : s) w += compact_advance(c);
  return s.empty() ? 0.f : w - 1.f;
}

namespace {

// "%.*g" with a compact exponent: 1.234e+05 -> 1.234e5, 1e-07 -> 1e-7.
std::string g_format(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  std::string s = buf;
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mant = s.substr(0, e), exp = s.substr(e + 1);
  std::string sign;
  if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) {
    if (exp[0] == '-') sign = "-";
    exp.erase(0, 1);
  }
  while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
  return mant + "e" + sign + exp;
}

// "0.97" -> ".97", "-0.97" -> "-.97"; anything else unchanged.
std::string without_leading_zero(const std::string& s) {
  if (s.rfind("0.", 0) == 0) return s.substr(1);
  if (s.rfind("-0.", 0) == 0) {
    std::string t = s;
    t.erase(1, 1);  // erased in place: GCC 12 warns (-Wrestrict) falsely on "-" + s.substr(2)
    return t;
  }
  return s;
}

}  // namespace

std::string format_cell_value(double v, float max_width) {
  if (std::isnan(v)) {
    if (compact_width("NaN") <= max_width) return "NaN";
    return compact_width("?") <= max_width ? "?" : "";
  }
  if (v == 0) return compact_width("0") <= max_width ? "0" : "";
  for (int digits = 4; digits >= 1; --digits) {
    const std::string s = g_format(v, digits);
    if (compact_width(s) <= max_width) return s;
    const std::string t = without_leading_zero(s);
    if (compact_width(t) <= max_width) return t;
  }
  // A small value in a narrow cell: rounded to two decimals, then one (-0.009 -> "-.01").
  if (std::abs(v) < 1) {
    for (int decimals = 2; decimals >= 1; --decimals) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
      const std::string t = without_leading_zero(buf);
      if (compact_width(t) <= max_width) return t;
    }
  }
  return "";
}

}  // namespace rl::viewer
