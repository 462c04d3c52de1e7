#include "viewer/screenshot.h"

#include <GL/gl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <vector>

namespace rl::viewer {

std::string write_framebuffer_png(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) return "empty framebuffer";
  const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
  std::vector<unsigned char> pixels(w * h * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  if (glGetError() != GL_NO_ERROR) return "glReadPixels failed";
  // OpenGL's rows run bottom-up; PNG's top-down.
  std::vector<unsigned char> flipped(pixels.size());
  for (std::size_t y = 0; y < h; ++y) {
    std::copy_n(&pixels[(h - 1 - y) * w * 3], w * 3, &flipped[y * w * 3]);
  }
  if (!stbi_write_png(path.c_str(), width, height, 3, flipped.data(), width * 3))
    return "cannot write " + path;
  return "";
}

}  // namespace rl::viewer
