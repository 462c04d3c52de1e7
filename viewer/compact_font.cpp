#include "viewer/compact_font.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "viewer/cell_text.h"

namespace rl::viewer {
namespace {
ImFont* g_compact = nullptr;
}

ImFont* add_compact_font() {
  ImGuiIO& io = ImGui::GetIO();
  if (io.Fonts->Fonts.empty()) io.Fonts->AddFontDefault();  // the UI's font stays the first
  ImFontConfig cfg;
  cfg.SizePixels = kFontLineH;
  std::snprintf(cfg.Name, sizeof cfg.Name, "compact");
  ImFont* font = io.Fonts->AddFontDefault(&cfg);
  int count = 0;
  const CompactGlyph* glyphs = compact_glyphs(&count);
  std::vector<int> rects(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const CompactGlyph& g = glyphs[i];
    rects[static_cast<std::size_t>(i)] = io.Fonts->AddCustomRectFontGlyph(
        font, static_cast<ImWchar>(g.c), g.width, kCompactRows, static_cast<float>(g.width + 1));
  }
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  // builds the atlas; the renderer uploads it later
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  for (int i = 0; i < count; ++i) {
    const CompactGlyph& g = glyphs[i];
    const ImFontAtlasCustomRect* r =
        io.Fonts->GetCustomRectByIndex(rects[static_cast<std::size_t>(i)]);
    for (int y = 0; y < kCompactRows; ++y) {
      auto* row = reinterpret_cast<ImU32*>(pixels) +
                  static_cast<std::size_t>(r->Y + y) * static_cast<std::size_t>(width) + r->X;
      for (int x = 0; x < g.width; ++x)
        row[x] = g.rows[y][x] == '#' ? IM_COL32(255, 255, 255, 255) : IM_COL32(255, 255, 255, 0);
    }
  }
  g_compact = font;
  return font;
}

ImFont* compact_font() { return g_compact; }

void compact_text(ImDrawList* dl, ImVec2 p, ImU32 color, std::string_view s) {
  if (s.empty()) return;
  ImFont* f = g_compact ? g_compact : ImGui::GetFont();
  dl->AddText(f, f->FontSize, {std::round(p.x), std::round(p.y)}, color, s.data(),
              s.data() + s.size());
}

}  // namespace rl::viewer
