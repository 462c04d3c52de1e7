#pragma once
// The kernel source a trace names (`source`), resolved against the source root, with the lines
// of the current frame's events highlighted. A missing file is a message in the panel.
#include <imgui.h>

#include <string>
#include <vector>

namespace rl::viewer {

class SourcePanel {
 public:
  // Resolves `source` (relative paths against root, then the working directory) and reads it.
  void load(const std::string& source, const std::string& root);
  // Draws the text in a child region of `size`; `lines` are 1-based line numbers (0 = none).
  void draw(const char* id, ImVec2 size, const int* lines, int line_count);

  const std::string& message() const { return message_; }
  bool loaded() const { return !lines_.empty(); }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::string path_;
  std::string message_;
  std::vector<std::string> lines_;
  int scrolled_to_ = -1;
};

}  // namespace rl::viewer
