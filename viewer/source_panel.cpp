#include "viewer/source_panel.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "viewer/colors.h"

namespace rl::viewer {

void SourcePanel::load(const std::string& source, const std::string& root) {
  namespace fs = std::filesystem;
  lines_.clear();
  scrolled_to_ = -1;
  path_ = source;
  if (source.empty()) {
    message_ = "This trace names no kernel source.";
    return;
  }
  std::vector<fs::path> candidates;
  const fs::path p(source);
  if (p.is_absolute()) {
    candidates.push_back(p);
  } else {
    if (!root.empty()) candidates.push_back(fs::path(root) / p);
    candidates.push_back(fs::current_path() / p);
  }
  for (const auto& c : candidates) {
    std::error_code ec;
    if (!fs::is_regular_file(c, ec) || fs::file_size(c, ec) > (std::uintmax_t{4} << 20)) continue;
    std::ifstream in(c);
    std::string line;
    while (std::getline(in, line)) {
      std::replace(line.begin(), line.end(), '\t', ' ');
      lines_.push_back(line);
    }
    path_ = c.string();
    message_.clear();
    if (lines_.empty()) lines_.push_back("");
    return;
  }
  message_ = "Source not found: " + source + " (looked under " +
             (root.empty() ? std::string(".") : root) + "; set --source-root)";
}

void SourcePanel::draw(const char* id, ImVec2 size, const int* lines, int line_count) {
  ImGui::BeginChild(id, size, true, ImGuiWindowFlags_HorizontalScrollbar);
  if (lines_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 170, 120, 255));
    ImGui::TextWrapped("%s", message_.c_str());
    ImGui::PopStyleColor();
    ImGui::EndChild();
    return;
  }
  ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "%s", path_.c_str());
  const int first = line_count > 0 && lines[0] > 0 ? lines[0] : -1;
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const float top = ImGui::GetCursorPosY();
  if (first > 0 && first != scrolled_to_) {
    // Centre the first highlighted line once per change, so the student can still scroll.
    ImGui::SetScrollY(std::max(0.f, top + line_h * static_cast<float>(first - 1) - size.y * 0.4f));
    scrolled_to_ = first;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(lines_.size()), line_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const bool hot = std::find(lines, lines + line_count, i + 1) != lines + line_count;
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      if (hot) {
        dl->AddRectFilled({pos.x - 4, pos.y},
                          {pos.x + ImGui::GetWindowWidth() + ImGui::GetScrollX(), pos.y + line_h},
                          IM_COL32(120, 95, 20, 200));
      }
      ImGui::TextColored(hot ? ImVec4(1, 0.9f, 0.5f, 1) : ImVec4(0.55f, 0.55f, 0.6f, 1), "%4d",
                         i + 1);
      ImGui::SameLine();
      ImGui::TextUnformatted(lines_[static_cast<std::size_t>(i)].c_str());
    }
  }
  ImGui::EndChild();
}

}  // namespace rl::viewer
