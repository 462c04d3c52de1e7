#pragma once
// The compact pixel font (glyphs in cell_text.cpp) as an ImGui font: the default font with the
// compact glyphs drawn over its digits and letters, one texel per pixel, so that values stay sharp
// and legible in cells 18 px wide. Call add_compact_font after ImGui::CreateContext and before the
// first frame (the renderer uploads the atlas then).
#include <imgui.h>

#include <string_view>

namespace rl::viewer {

ImFont* add_compact_font();
ImFont* compact_font();  // nullptr before add_compact_font

// Draws s in the compact font with its top-left at p (whole pixels, so the glyphs stay crisp).
void compact_text(ImDrawList* dl, ImVec2 p, ImU32 color, std::string_view s);

}  // namespace rl::viewer
