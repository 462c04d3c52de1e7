#include "viewer/watch_view.h"

#include <imgui.h>

#include "viewer/colors.h"

namespace rl::viewer {

void draw_watch_status(const WatchStatus& s) {
  const bool busy = s.phase != Phase::idle && s.phase != Phase::shown;
  ImU32 color = kTextColor;
  if (busy)
    color = kHighlight;
  else if (s.kind == RoundResult::Kind::passed)
    color = IM_COL32(110, 215, 130, 255);
  else if (s.kind != RoundResult::Kind::none)
    color = kStale;  // does not compile, or failed
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  // The line names its phase itself: "watching ...", "building ...", "grading ...", "tracing ...",
  // or the verdict ("PASSED", "FAILED [race]: ...", "DOES NOT COMPILE: file:line: ...").
  if (busy)
    ImGui::TextWrapped("watch: %s %.0f s", s.line.c_str(), s.busy_s);
  else
    ImGui::TextWrapped("watch: %s", s.line.c_str());
  ImGui::PopStyleColor();
  const ImVec4 dim(0.6f, 0.6f, 0.65f, 1);
  // While the next round runs, the last verdict stays readable under it.
  if (busy && s.round > 0) ImGui::TextColored(dim, "round %d: %s", s.round, s.verdict.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, dim);
  if (!s.hint.empty()) ImGui::TextWrapped("hint: %s", s.hint.c_str());  // a long command line
  if (!s.note.empty()) ImGui::TextWrapped("%s", s.note.c_str());
  ImGui::PopStyleColor();
}

}  // namespace rl::viewer
