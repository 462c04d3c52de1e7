#include "viewer/run_panel.h"

#include <imgui.h>

#include <cstdio>

#include "common/host/cli.h"
#include "common/host/sim_budget.h"

namespace rl::viewer {

RunPanel::RunPanel(RunLimits limits) : model_(limits) {
  const int c = find_choice("sequential_addressing");
  request_.choice = c >= 0 ? c : 0;
}

bool RunPanel::run(const RunRequest& r) {
  last_ = r;
  if (!model_.start(r)) {
    if (auto o = model_.take_outcome()) status_ = o->line;
    return false;
  }
  status_ = "running " + run_choices()[static_cast<std::size_t>(r.choice)].label + " over " +
            size_text(r.n) + " elements";
  return true;
}

std::optional<RunOutcome> RunPanel::poll() {
  if (!model_.busy()) return std::nullopt;
  model_.poll(slice_ms > 0 ? slice_ms : 1e9);
  if (model_.busy()) return std::nullopt;
  std::optional<RunOutcome> o = model_.take_outcome();
  if (o) {
    status_ = std::string(to_string(o->status)) + ": " + o->line;
    if (on_finish) on_finish(last_, *o);
  }
  return o;
}

void RunPanel::draw() {
  const auto& choices = run_choices();
  ImGui::TextUnformatted(
      "Run a kernel of the course on the simulator (every CUDA thread a fiber).");
  ImGui::Spacing();
  ImGui::BeginDisabled(model_.busy());
  ImGui::SetNextItemWidth(360);
  if (ImGui::BeginCombo("kernel",
                        choices[static_cast<std::size_t>(request_.choice)].label.c_str())) {
    for (std::size_t i = 0; i < choices.size(); ++i) {
      const bool on = static_cast<int>(i) == request_.choice;
      if (ImGui::Selectable(choices[i].label.c_str(), on)) request_.choice = static_cast<int>(i);
      if (on) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(120);
  ImGui::InputText("n (1000, 2^16, 2^16+3)", n_text_, sizeof n_text_);
  static const unsigned blocks[] = {32, 64, 128, 256, 512, 1024};
  ImGui::TextUnformatted("block");
  for (unsigned b : blocks) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%u##block", b);
    if (ImGui::RadioButton(label, request_.block == b)) request_.block = b;
  }
  ImGui::TextUnformatted("thread order");
  ImGui::SameLine();
  int order = static_cast<int>(request_.order);
  ImGui::RadioButton("lane", &order, static_cast<int>(SimSchedule::lane_order));
  ImGui::SameLine();
  ImGui::RadioButton("reverse", &order, static_cast<int>(SimSchedule::reverse_lanes));
  ImGui::SameLine();
  ImGui::RadioButton("shuffled", &order, static_cast<int>(SimSchedule::shuffled));
  request_.order = static_cast<SimSchedule>(order);
  ImGui::Checkbox("race detector", &request_.racecheck);
  ImGui::Spacing();
  const auto start = [&](bool compare) {
    const std::optional<std::uint64_t> n = parse_size(n_text_);
    if (!n) {
      status_ = std::string("refused: n must be a size such as 1000, 2^16 or 2^16+3 (got '") +
                n_text_ + "')";
      return;
    }
    RunRequest r = request_;
    r.n = *n;
    r.with_solution = compare;
    run(r);
  };
  if (ImGui::Button("Run")) start(false);
  ImGui::SameLine();
  if (ImGui::Button("Run and compare with the solution")) start(true);
  ImGui::EndDisabled();
  if (model_.busy()) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) model_.cancel();
    const RunProgress p = model_.progress();
    char text[128];
    std::snprintf(text, sizeof text, "launch %llu, block %llu of %llu, %.1f s",
                  static_cast<unsigned long long>(p.launches),
                  static_cast<unsigned long long>(p.blocks_done),
                  static_cast<unsigned long long>(p.blocks), p.seconds);
    ImGui::ProgressBar(
        p.blocks ? static_cast<float>(p.blocks_done) / static_cast<float>(p.blocks) : 0.f,
        ImVec2(360, 0), text);
  }
  ImGui::Spacing();
  ImGui::TextWrapped("%s", status_.c_str());
  ImGui::Spacing();
  ImGui::TextDisabled(
      "Up to n = %s the run's tree opens in the Reduction tree view; runs estimated over %s are "
      "refused.",
      size_text(model_.limits().trace_max_n).c_str(),
      rough_duration(model_.limits().max_seconds).c_str());
}

}  // namespace rl::viewer
