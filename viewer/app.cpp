#include "viewer/app.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include "common/trace/trace_loader.h"
#include "viewer/colors.h"
#include "viewer/compact_font.h"
#include "viewer/counters_view.h"
#include "viewer/step_text.h"

namespace rl::viewer {

std::string default_source_root() {
#ifdef RL_REPO_ROOT
  if (std::filesystem::is_directory(RL_REPO_ROOT)) return RL_REPO_ROOT;
#endif
  return ".";
}

namespace {

// A trace file still in format version 1: its top-level "version" (written first or, keys sorted,
// last) is 1.
bool version1_trace(const std::string& text) {
  static const std::regex v1(R"re("version"\s*:\s*1\s*[,}])re");
  if (text.find("\"reducelab.trace\"") == std::string::npos) return false;
  const std::size_t edge = std::min<std::size_t>(text.size(), 4096);
  return std::regex_search(text.substr(0, edge), v1) ||
         std::regex_search(text.substr(text.size() - edge), v1);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

App::App(AppOptions options) : options_(std::move(options)), run_panel_(options_.run_limits) {
  if (options_.source_root.empty()) options_.source_root = default_source_root();
  playback_.set_loop(options_.loop);
}

void App::error(const std::string& line) {
  std::cerr << "error: " << line << "\n";
  ++failed_loads_;
  errors_.push_back(line);
  if (errors_.size() > 4) errors_.erase(errors_.begin());
}

void App::load(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    error(path + (fs::exists(path, ec) ? ": not a regular file" : ": no such file"));
    return;
  }
  if (fs::file_size(path, ec) > kMaxTraceBytes) {
    error(path + ": file is over the 256 MiB limit");
    return;
  }
  const std::string text = read_file(path);
  try {
    if (looks_like_profile(text)) {
      profiles_.push_back(parse_profile(text, path));
    } else if (text.find("\"reducelab.trace\"") != std::string::npos) {
      traces_.push_back(make_trace_doc(parse_trace(text, path), options_.source_root));
      if (traces_.size() == 2 && right_ < 0 && !run_opened_) right_ = 1;
      sync_steps();
    } else if (looks_like_lesson_tables(text)) {
      for (auto& t : parse_lesson_tables(text, path)) tables_.push_back(std::move(t));
    } else {
      results_.push_back(parse_results(text, path));
      runs_ = group_by_run(results_);
    }
  } catch (const std::exception& e) {  // TraceError, ResultsError: already one line
    error(e.what());
  }
}

bool App::load_default_trace(const std::string& path) {
  if (version1_trace(read_file(path))) {
    ++skipped_v1_;
    note_ = std::to_string(skipped_v1_) +
            " traces in assets/traces are still format version 1 (recorded before v2): not shown "
            "until recorded again.";
    return false;
  }
  load(path);
  return true;
}

void App::load_defaults(bool profile) {
  namespace fs = std::filesystem;
  for (const char* dir : {"assets/results", "assets/traces"}) {
    fs::path base = fs::path(dir);
    std::error_code ec;
    if (!fs::is_directory(base, ec)) base = fs::path(default_source_root()) / dir;
    if (!fs::is_directory(base, ec)) continue;
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(base, ec)) {
      if (e.path().extension() == ".json") files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    const bool traces = std::string(dir) == "assets/traces";
    for (const auto& f : files) {
      if (options_.defer_loads)
        deferred_.push_back({f, traces});
      else if (!traces)
        load(f);  // results: no format version 1 to look for
      else
        load_default_trace(f);
    }
    if (!traces && profile) {  // the profile next, as the counters need the results first
      fs::path p = fs::path("assets/profiles/h100-profile.json");
      if (!fs::exists(p, ec)) p = fs::path(default_source_root()) / p;
      if (!fs::exists(p, ec)) continue;
      if (options_.defer_loads)
        deferred_.push_back({p.string(), false});
      else
        load(p.string());
    }
  }
  std::reverse(deferred_.begin(), deferred_.end());  // taken from the back, in name order
  pick_smallest_trace();
}

// A folder of traces: one at a time (pick a second to compare), the smallest first.
void App::pick_smallest_trace() {
  right_ = -1;
  for (int i = 0; i < static_cast<int>(traces_.size()); ++i) {
    if (traces_[static_cast<std::size_t>(i)]->trace.n <
        traces_[static_cast<std::size_t>(left_)]->trace.n)
      left_ = i;
  }
}

void App::start() {
  if (options_.view == "throughput")
    view_ = View::throughput;
  else if (options_.view == "bars")
    view_ = View::bars;
  else if (options_.view == "scaling")
    view_ = View::scaling;
  else if (options_.view == "tree")
    view_ = View::tree;
  else if (options_.view == "tables")
    view_ = View::tables;
  else if (options_.view == "run")
    view_ = View::run;
  else {
    // What was loaded decides: one-GPU results, several-GPU results, tables, traces.
    const bool series = std::any_of(runs_.begin(), runs_.end(),
                                    [](const RunResults& d) { return !d.series.empty(); });
    const bool scaling = std::any_of(runs_.begin(), runs_.end(),
                                     [](const RunResults& d) { return !d.scaling.empty(); });
    if (series)
      view_ = View::throughput;
    else if (scaling)
      view_ = View::scaling;
    else if (!tables_.empty())
      view_ = View::tables;
    else if (!traces_.empty())
      view_ = View::tree;
    else
      view_ = View::throughput;
  }
  // The run first plotted: --device (a part of its label: the device, the date or the file),
  // else the first with one-GPU runs (or, for the scaling view, with several-GPU runs).
  run_ = 0;
  for (int i = static_cast<int>(runs_.size()) - 1; i >= 0; --i) {
    const RunResults& d = runs_[static_cast<std::size_t>(i)];
    const bool fits = view_ == View::scaling ? !d.scaling.empty() : !d.series.empty();
    if (fits) run_ = i;
  }
  if (!options_.device.empty()) {
    for (int i = 0; i < static_cast<int>(runs_.size()); ++i) {
      if (runs_[static_cast<std::size_t>(i)].label().find(options_.device) != std::string::npos) {
        run_ = i;
        break;
      }
    }
  }
  if (options_.point_lesson >= 0) {
    // --point: a throughput point, so the throughput view unless --view says otherwise.
    if (options_.view.empty()) view_ = View::throughput;
    const bool series = run_ < static_cast<int>(runs_.size()) &&
                        !runs_[static_cast<std::size_t>(run_)].series.empty();
    const std::string why =
        series ? throughput_.select(runs_[static_cast<std::size_t>(run_)], profiles_,
                                    options_.point_lesson, options_.point_variant, options_.point_n)
               : "no one-GPU results loaded";
    if (!why.empty()) error("--point " + options_.point + ": " + why);
  }
  sync_steps();
  compare_if_changed();
  focus_on_flags();
  if (options_.step > 0)
    playback_.scrub(options_.step - 1);
  else if (!traces_.empty())
    playback_.scrub(traces_[static_cast<std::size_t>(
                                std::clamp(left_, 0, static_cast<int>(traces_.size()) - 1))]
                        ->steps.first_with_additions());
}

void App::sync_steps() {
  int steps = 1;
  for (int i : {left_, right_}) {
    if (i >= 0 && i < static_cast<int>(traces_.size()))
      steps = std::max(steps, traces_[static_cast<std::size_t>(i)]->steps.count());
  }
  playback_.set_frame_count(steps);
}

void App::compare_if_changed() {
  const bool two = right_ >= 0 && right_ < static_cast<int>(traces_.size()) && right_ != left_ &&
                   left_ < static_cast<int>(traces_.size());
  const int want[2] = {two ? left_ : -1, two ? right_ : -1};
  if (want[0] == compared_[0] && want[1] == compared_[1]) return;
  compared_[0] = want[0];
  compared_[1] = want[1];
  comparison_ = two ? compare_traces(traces_[static_cast<std::size_t>(left_)]->trace,
                                     traces_[static_cast<std::size_t>(right_)]->trace)
                    : TraceComparison{};
  focus_on_flags();
}

// Both panels look at the first difference; a panel alone at its first stale read.
void App::focus_on_flags() {
  const int sides[2] = {left_, right_};
  TreeView* views[2] = {&tree_left_, &tree_right_};
  for (int k = 0; k < 2; ++k) {
    if (sides[k] < 0 || sides[k] >= static_cast<int>(traces_.size())) continue;
    const TraceDoc& doc = *traces_[static_cast<std::size_t>(sides[k])];
    const bool paired = compared_[0] >= 0;
    const int e = paired && comparison_.same_input && comparison_.first.found
                      ? comparison_.first.event[k]
                      : -1;
    if (e >= 0) {
      const Event& ev = doc.trace.events[static_cast<std::size_t>(e)];
      views[k]->set_focus(ev.block, ev.dst.space.kind == SpaceKind::buffer ? 0 : ev.dst.index);
    } else if (!doc.stale.empty()) {
      views[k]->set_focus(doc.stale.front().block, doc.stale.front().slot);
    }
  }
}

void App::drop(const std::vector<std::string>& paths) {
  pending_.insert(pending_.end(), paths.begin(), paths.end());
}

void App::toolbar() {
  auto tab = [&](const char* name, View v) {
    const bool on = view_ == v;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(name)) view_ = v;
    if (on) ImGui::PopStyleColor();
    ImGui::SameLine();
  };
  tab("Throughput", View::throughput);
  tab("Ladder bars", View::bars);
  tab("Several GPUs", View::scaling);
  tab("Tables (lessons 18-21)", View::tables);
  tab("Reduction tree", View::tree);
  tab("Run", View::run);
  // What is loaded, in full: the path box takes what is left.
  char status[128];
  std::snprintf(status, sizeof status, "%zu results, %zu tables, %zu traces", results_.size(),
                unique_tables(tables_).size(), traces_.size());
  if (!profiles_.empty()) {
    const std::size_t used = std::strlen(status);
    std::snprintf(status + used, sizeof status - used, ", %zu profile%s", profiles_.size(),
                  profiles_.size() == 1 ? "" : "s");
  }
  const float status_w = ImGui::CalcTextSize(status).x;
  const float load_w = ImGui::CalcTextSize("Load").x + ImGui::GetStyle().FramePadding.x * 2;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  ImGui::SameLine(0, 16);
  ImGui::SetNextItemWidth(
      std::max(80.f, ImGui::GetContentRegionAvail().x - load_w - status_w - 3 * spacing));
  const bool enter =
      ImGui::InputTextWithHint("##path", "path of a JSON file (or drop files on the window)",
                               path_box_, sizeof path_box_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Load") || enter) && path_box_[0]) {
    const std::size_t before = traces_.size();
    load(path_box_);
    if (traces_.size() > before) view_ = View::tree;
    path_box_[0] = 0;
  }
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "%s", status);
}

void App::error_strip() {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float h = ImGui::GetFrameHeight();
  const float x0 = ImGui::GetCursorScreenPos().x;
  const float width = ImGui::GetContentRegionAvail().x;
  const float close_w = h;  // the close button: a square at the right end, never over the text
  for (std::size_t i = 0; i < errors_.size(); ++i) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(p, {x0 + width, p.y + h}, kErrorColor);
    const std::string line = "error: " + errors_[i];
    dl->PushClipRect(p, {x0 + width - close_w - 6, p.y + h}, true);
    dl->AddText({p.x + 6, p.y + ImGui::GetStyle().FramePadding.y}, kTextColor, line.c_str());
    dl->PopClipRect();
    if (ImGui::IsMouseHoveringRect(p, {x0 + width - close_w - 6, p.y + h}))
      ImGui::SetTooltip("%s", line.c_str());
    ImGui::PushID(static_cast<int>(i));
    ImGui::SetCursorScreenPos({x0 + width - close_w, p.y});
    const bool close = ImGui::Button("x", {close_w, h});
    ImGui::PopID();
    ImGui::SetCursorScreenPos({x0, p.y + h + 2});
    if (close) {
      errors_.erase(errors_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  if (!note_.empty()) ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "%s", note_.c_str());
  ImGui::Dummy({0, 0});
}

bool App::run_picker(bool scaling) {
  std::vector<int> usable;
  for (int i = 0; i < static_cast<int>(runs_.size()); ++i) {
    const RunResults& d = runs_[static_cast<std::size_t>(i)];
    if (scaling ? !d.scaling.empty() : !d.series.empty()) usable.push_back(i);
  }
  if (usable.empty()) return false;
  if (std::find(usable.begin(), usable.end(), run_) == usable.end()) run_ = usable.front();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Run");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(640.f, ImGui::GetContentRegionAvail().x * 0.6f));
  if (ImGui::BeginCombo("##run", runs_[static_cast<std::size_t>(run_)].label().c_str())) {
    for (int i : usable) {
      if (ImGui::Selectable(runs_[static_cast<std::size_t>(i)].label().c_str(), i == run_))
        run_ = i;
    }
    ImGui::EndCombo();
  }
  if (usable.size() > 1) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1),
                       "one run per picture: one device, one session, its own ceiling");
  }
  return true;
}

void App::legend(float width) {
  struct Item {
    // 0 lit cell, 1 held, 2 empty, 3 register, 4 conflict, 5 stale, 6 differs, 7 unexplained, 8
    // arrow, 9 shuffle, 10 dashed
    int swatch;
    const char* text;
  };
  static const Item items[] = {{0, "written at this step (colour: the writer's warp)"},
                               {1, "holds an earlier value"},
                               {2, "not written yet"},
                               {3, "a lane's register"},
                               {8, "read by the addition (t5: the thread that wrote)"},
                               {9, "from another lane, by a shuffle"},
                               {10, "from a column not shown"},
                               {4, "bank conflict (2x: 2-way)"},
                               {5, "stale read"},
                               {6, "first difference"},
                               {7, "read the trace cannot explain"}};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float line_h = ImGui::GetTextLineHeight() + 3;
  float x = o.x, y = o.y;
  for (const Item& it : items) {
    const float w = 22 + ImGui::CalcTextSize(it.text).x + 16;
    if (x > o.x && x + w > o.x + width) x = o.x, y += line_h;
    const ImVec2 a{x, y + 2}, b{x + 16, y + line_h - 4};
    const float my = (a.y + b.y) / 2;
    switch (it.swatch) {
      case 0:
        dl->AddRectFilled(a, b, warp_color(0), 1);
        break;
      case 1:
        dl->AddRectFilled(a, b, IM_COL32(52, 52, 62, 255), 1);
        break;
      case 2:
        dl->AddRect(a, b, IM_COL32(62, 62, 72, 255), 1);
        break;
      case 3:
        dl->AddRectFilled(a, b, warp_color(1), 6);
        break;
      case 4:
        dl->AddRectFilled(a, b, IM_COL32(52, 52, 62, 255), 1), dl->AddRect(a, b, kStale, 1, 0, 2);
        break;
      case 5:
        dl->AddRect(a, b, kStale, 1, 0, 2),
            dl->AddRect({a.x + 3, a.y + 3}, {b.x - 3, b.y - 3}, kStale, 1);
        break;
      case 6:
        dl->AddRect(a, b, kDiffers, 1, 0, 2.5f);
        break;
      case 7:
        dl->AddRect(a, b, kUnexplained, 1, 0, 2);
        break;
      case 8:
        dl->AddLine({a.x, my}, {b.x, my}, IM_COL32(225, 225, 240, 255), 1.5f);
        break;
      case 9:
        dl->AddLine({a.x, my}, {b.x, my}, IM_COL32(255, 150, 60, 255), 1.5f);
        break;
      case 10:
        for (float s = a.x; s < b.x; s += 6)
          dl->AddLine({s, my}, {std::min(s + 3.5f, b.x), my}, IM_COL32(225, 225, 240, 255), 1.5f);
        break;
    }
    dl->AddText({x + 22, y}, kDimText, it.text);
    x += w;
  }
  ImGui::Dummy({width, y - o.y + line_h});
}

void App::tree_view(ImVec2 size) {
  if (traces_.empty()) {
    ImGui::TextUnformatted(
        "No traces loaded. Write one with a lesson's --trace FILE and load it with the path box "
        "above.");
    return;
  }
  // Pickers and playback controls.
  auto picker = [&](const char* label, int& index, bool allow_none) {
    const char* shown =
        index >= 0 ? traces_[static_cast<std::size_t>(index)]->label.c_str() : "(none)";
    ImGui::SetNextItemWidth(std::min(380.f, size.x * 0.24f));
    if (ImGui::BeginCombo(label, shown)) {
      if (allow_none && ImGui::Selectable("(none)", index < 0)) index = -1;
      for (int i = 0; i < static_cast<int>(traces_.size()); ++i) {
        if (ImGui::Selectable(traces_[static_cast<std::size_t>(i)]->label.c_str(), i == index))
          index = i;
      }
      ImGui::EndCombo();
      sync_steps();
    }
  };
  left_ = std::clamp(left_, 0, static_cast<int>(traces_.size()) - 1);
  picker("##left", left_, false);
  ImGui::SameLine();
  picker("compare with##right", right_, true);
  compare_if_changed();
  ImGui::SameLine(0, 20);
  if (ImGui::Button("|<")) playback_.first();
  ImGui::SameLine();
  if (ImGui::Button("<")) playback_.step_back();
  ImGui::SameLine();
  if (ImGui::Button(playback_.playing() ? "Pause" : "Play", {52, 0})) playback_.toggle();
  ImGui::SameLine();
  if (ImGui::Button(">")) playback_.step_forward();
  ImGui::SameLine();
  if (ImGui::Button(">|")) playback_.last();
  ImGui::SameLine();
  // Steps counted from 1, as the panels and --step count them.
  int s = playback_.frame() + 1;
  char format[48];
  std::snprintf(format, sizeof format, "step %%d of %d", playback_.frame_count());
  ImGui::SetNextItemWidth(std::max(ImGui::CalcTextSize("step 000 of 000").x + 16,
                                   ImGui::GetContentRegionAvail().x - 126.f));
  if (ImGui::SliderInt("##scrub", &s, 1, playback_.frame_count(), format)) playback_.scrub(s - 1);
  ImGui::SameLine();
  float speed = static_cast<float>(playback_.speed());
  ImGui::SetNextItemWidth(110);
  if (ImGui::SliderFloat("##speed", &speed, 0.25f, 30.f, "%.2f steps/s",
                         ImGuiSliderFlags_Logarithmic))
    playback_.set_speed(speed);

  const bool two = compared_[0] >= 0;
  if (two) {
    const Trace& a = traces_[static_cast<std::size_t>(left_)]->trace;
    if (comparison_.same_input) {
      ImGui::TextColored(ImVec4(0.55f, 0.85f, 0.6f, 1),
                         "Same input on both sides: n=%lld, block %d, seed %llu, %s.",
                         static_cast<long long>(a.n), a.block,
                         static_cast<unsigned long long>(a.seed), a.distribution.c_str());
    } else {
      const std::string s2 = "Not the same input (" + comparison_.input_differences +
                             "): these traces reduce different numbers, so their values cannot be "
                             "compared step by step.";
      ImGui::PushStyleColor(ImGuiCol_Text, kStale);
      for (const auto& l : wrap_phrases(sentence_phrases(s2), size.x, " "))
        ImGui::TextUnformatted(l.c_str());
      ImGui::PopStyleColor();
    }
  }
  const float gap = kPanelGap;
  // panel_width(display, two): the layout tests use it
  const float col_w = two ? (size.x - gap) / 2 : size.x;
  const float avail_h = ImGui::GetContentRegionAvail().y;
  const int docs[2] = {left_, two ? right_ : -1};
  // The bottom: the source, with each side's hardware counters beside it (a wide column) or above
  // it; both sides' panels as tall as the taller, so that the sources start level.
  const BottomPlace place = place_counters(col_w);
  CounterPanel panels[2];
  PanelLayout panel_layouts[2];
  bool has_panel[2] = {false, false};
  float panel_h = 0;
  for (int k = 0; k < (two ? 2 : 1); ++k) {
    has_panel[k] = counters_of(k, playback_.frame(), panels[k]);
    if (!has_panel[k]) continue;
    panel_layouts[k] = layout_counter_panel(panels[k], place.panel_w);
    panel_h = std::max(panel_h, panel_layouts[k].height);
  }
  float source_h = std::clamp(avail_h * 0.24f, 90.f, 180.f);
  float bottom_h = source_h;
  if (panel_h > 0 && place.beside) {
    bottom_h = std::max(source_h, panel_h);
  } else if (panel_h > 0) {
    source_h = std::max(90.f, source_h - panel_h);
    bottom_h = panel_h + 4 + source_h;
  }
  const float legend_h = (ImGui::GetTextLineHeight() + 3) * (size.x < 1500 ? 2 : 1) + 6;
  const float tree_h = avail_h - bottom_h - legend_h - 8.f;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  TreeView* views[2] = {&tree_left_, &tree_right_};
  for (int k = 0; k < (two ? 2 : 1); ++k) {
    const TraceDoc& doc = *traces_[static_cast<std::size_t>(docs[k])];
    const float x = top.x + static_cast<float>(k) * (col_w + gap);
    ImGui::SetCursorScreenPos({x, top.y});
    ImGui::BeginGroup();
    ImGui::PushClipRect({x, top.y}, {x + col_w, top.y + tree_h}, true);
    const int step = std::min(playback_.frame(), doc.steps.count() - 1);
    const double progress = step == playback_.frame() ? playback_.progress() : 1.0;
    const float header_h =
        two ? std::max(views[0]->header_height(), views[1]->header_height()) : 0.f;
    views[k]->draw(k == 0 ? "left" : "right", doc, step, progress, {col_w, tree_h}, two,
                   two ? PanelCompare{&comparison_, k} : PanelCompare{}, header_h);
    ImGui::PopClipRect();
    ImGui::EndGroup();
    const int request = views[k]->take_step_request();
    if (request >= 0) playback_.scrub(request);
  }
  // Comparing the same input: one focus for both sides.
  if (two && comparison_.same_input) {
    for (int k = 0; k < 2; ++k) {
      if (views[k]->block() != synced_block_[k] || views[k]->want_column() != synced_column_[k]) {
        views[1 - k]->set_focus(views[k]->block(), views[k]->want_column());
        break;
      }
    }
    for (int k = 0; k < 2; ++k)
      synced_block_[k] = views[k]->block(), synced_column_[k] = views[k]->want_column();
  }
  ImGui::SetCursorScreenPos({top.x, top.y + tree_h + 4});
  legend(size.x);
  const float source_top = ImGui::GetCursorScreenPos().y;
  for (int k = 0; k < (two ? 2 : 1); ++k) {
    TraceDoc& doc = *traces_[static_cast<std::size_t>(docs[k])];
    const float x = top.x + static_cast<float>(k) * (col_w + gap);
    float src_top = source_top, src_w = col_w;
    if (has_panel[k] && place.beside) {
      ImGui::SetCursorScreenPos({x + col_w - place.panel_w, source_top});
      draw_counter_panel(panels[k], panel_layouts[k]);
      src_w = place.source_w;
    } else if (panel_h > 0) {
      ImGui::SetCursorScreenPos({x, source_top});
      if (has_panel[k]) draw_counter_panel(panels[k], panel_layouts[k]);
      src_top = source_top + panel_h + 4;
    }
    ImGui::SetCursorScreenPos({x, src_top});
    // The line of the work: the event under the mouse, else every line of the step's events.
    const int hovered = views[k]->hovered_event();
    std::vector<int> lines;
    if (hovered >= 0)
      lines.push_back(doc.trace.events[static_cast<std::size_t>(hovered)].line);
    else
      lines = doc.steps.lines(std::min(playback_.frame(), doc.steps.count() - 1));
    const float h = std::max(60.f, top.y + avail_h - src_top);
    doc.source.draw(k == 0 ? "leftsrc" : "rightsrc", {src_w, h}, lines.data(),
                    static_cast<int>(lines.size()));
  }
}

bool App::counters_of(int k, int frame, CounterPanel& panel) {
  if (profiles_.empty()) return false;
  const int index = k == 0 ? left_ : right_;
  const TraceDoc& doc = *traces_[static_cast<std::size_t>(index)];
  const Trace& t = doc.trace;
  const ProfileMatch m =
      find_profiled(profiles_, "", t.lesson, t.variant, static_cast<double>(t.n), t.block);
  if (!m.call) {
    panel = no_counters_panel(t, profiles_);
    return true;
  }
  const int step = std::min(frame, doc.steps.count() - 1);
  const int launch = step >= 0 ? doc.steps.steps[static_cast<std::size_t>(step)].launch : 0;
  panel =
      counter_panel(*m.file, *m.call, launch, t, doc.predicted[static_cast<std::size_t>(launch)]);
  return true;
}

void App::frame(ImVec2 display, double dt) {
  if (std::optional<RunOutcome> o = run_panel_.poll()) open_run(*o);
  if (!deferred_.empty()) {
    const Deferred next = deferred_.back();
    deferred_.pop_back();
    if (next.trace)
      load_default_trace(next.path);
    else
      load(next.path);
    if (deferred_.empty() && !run_opened_) pick_smallest_trace();
  }
  if (!pending_.empty()) {
    const auto files = std::move(pending_);
    pending_.clear();
    const std::size_t before = traces_.size();
    for (const auto& p : files) load(p);
    if (traces_.size() > before) {
      view_ = View::tree;
      left_ = static_cast<int>(before);
      sync_steps();
    }
  }
  if (!ImGui::GetIO().WantTextInput) {
    if (ImGui::IsKeyPressed(ImGuiKey_Space)) playback_.toggle();
    if (ImGui::IsKeyPressed(ImGuiKey_RightArrow)) playback_.step_forward();
    if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow)) playback_.step_back();
    if (ImGui::IsKeyPressed(ImGuiKey_Home)) playback_.first();
    if (ImGui::IsKeyPressed(ImGuiKey_End)) playback_.last();
  }
  playback_.update(dt);

  ImGui::SetNextWindowPos({0, 0});
  ImGui::SetNextWindowSize(display);
  ImGui::Begin("ReduceLab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoScrollWithMouse |
                   // the GL clear is the background: one full-window blend less
                   ImGuiWindowFlags_NoBackground);
  toolbar();
  error_strip();
  if (strip_) strip_();
  ImGui::Separator();
  switch (view_) {
    case View::throughput:
      if (run_picker(false))
        throughput_.draw(runs_[static_cast<std::size_t>(run_)], ImGui::GetContentRegionAvail(),
                         profiles_);
      else
        ImGui::TextUnformatted(
            "No one-GPU results loaded. Load a results JSON (reducelab bench --json FILE) with the "
            "path box above.");
      break;
    case View::bars:
      if (run_picker(false))
        bars_.draw(runs_[static_cast<std::size_t>(run_)], ImGui::GetContentRegionAvail());
      else
        ImGui::TextUnformatted(
            "No one-GPU results loaded. Load a results JSON (reducelab ladder --json FILE) with "
            "the path box above.");
      break;
    case View::scaling:
      if (run_picker(true))
        scaling_.draw(runs_[static_cast<std::size_t>(run_)], ImGui::GetContentRegionAvail());
      else
        ImGui::TextUnformatted(
            "No several-GPU results loaded. Lesson 22 writes them: reducelab scaling --json FILE.");
      break;
    case View::tables:
      tables_view_.draw(unique_tables(tables_), ImGui::GetContentRegionAvail());
      break;
    case View::tree:
      tree_view(ImGui::GetContentRegionAvail());
      break;
    case View::run:
      run_panel_.draw();
      break;
  }
  ImGui::End();
}

int App::add_trace(const std::string& text, const std::string& name) {
  return put_trace(text, name, -1);
}

int App::put_trace(const std::string& text, const std::string& name, int replace) {
  std::unique_ptr<TraceDoc> doc;
  try {
    doc = make_trace_doc(parse_trace(text, name), options_.source_root);
  } catch (const std::exception& e) {
    error(e.what());
    return -1;
  }
  if (replace >= 0 && replace < static_cast<int>(traces_.size())) {
    traces_[static_cast<std::size_t>(replace)] = std::move(doc);
  } else {
    traces_.push_back(std::move(doc));
    replace = static_cast<int>(traces_.size()) - 1;
  }
  sync_steps();
  return replace;
}

void App::open_pair(const std::string& a, const std::string& a_name, const std::string& b,
                    const std::string& b_name, PairSlot* slot) {
  PairSlot none;
  PairSlot& s = slot ? *slot : none;
  const bool again = s.index[0] >= 0;  // this slot's pair is shown already: keep the step
  const int left = put_trace(a, a_name, s.index[0]);
  if (left < 0) return;
  s.index[0] = left;
  left_ = left;
  right_ = -1;
  if (!b.empty()) {
    const int right = put_trace(b, b_name, s.index[1]);
    if (right >= 0) right_ = s.index[1] = right;
  }
  // The traces under these indexes may be new: -2 (no pair) makes compare_if_changed compare them
  // again, and look at their first difference.
  compared_[0] = compared_[1] = -2;
  compare_if_changed();
  if (!again) {
    view_ = View::tree;
    playback_.first();
  }
  run_opened_ = true;
  sync_steps();
}

// A finished run: its trace on the left of the tree view, the solution's on the right.
void App::open_run(const RunOutcome& o) {
  if (o.trace.empty()) return;
  const RunRequest& r = run_panel_.last_request();
  const RunChoice& c = run_choices()[static_cast<std::size_t>(r.choice)];
  const std::string label =
      "run: " + c.key + " n=" + std::to_string(r.n) + " block " + std::to_string(r.block);
  const std::string what = c.broken ? "its fix" : "the solution";
  open_pair(o.trace, label, o.solution_trace, what + ", same input");
}

}  // namespace rl::viewer
