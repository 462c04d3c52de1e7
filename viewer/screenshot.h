#pragma once
// Reads the current framebuffer back and writes it as a PNG (stb_image_write).
#include <string>

namespace rl::viewer {

// Returns "" on success, else a one-line reason.
std::string write_framebuffer_png(const std::string& path, int width, int height);

}  // namespace rl::viewer
