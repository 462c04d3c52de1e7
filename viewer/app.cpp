#include "viewer/app.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/trace/trace_loader.h"
#include "viewer/colors.h"

namespace rl::viewer {

std::string default_source_root() {
#ifdef RL_REPO_ROOT
  if (std::filesystem::is_directory(RL_REPO_ROOT)) return RL_REPO_ROOT;
#endif
  return ".";
}

App::App(AppOptions options) : options_(std::move(options)) {
  if (options_.source_root.empty()) options_.source_root = default_source_root();
  playback_.set_loop(options_.loop);
}

void App::error(const std::string& line) {
  std::cerr << "error: " << line << "\n";
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
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  try {
    if (text.find("\"reducelab.trace\"") != std::string::npos) {
      traces_.push_back(make_trace_doc(parse_trace(text, path), options_.source_root));
      if (traces_.size() == 2 && right_ < 0) right_ = 1;
      sync_frames();
    } else if (looks_like_comparison(text)) {
      tables_.push_back(parse_comparison(text, path));
    } else {
      results_.push_back(parse_results(text, path));
      series_ = build_series(results_);
    }
  } catch (const std::exception& e) {  // TraceError, ResultsError: already one line
    error(e.what());
  } 
}

void App::load_defaults() {
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
    for (const auto& f : files) load(f);
  }
  right_ = -1;  // a folder of traces: one at a time, pick a second to compare
}

void App::start() {
  if (options_.view == "throughput") view_ = View::throughput;
  else if (options_.view == "bars") view_ = View::bars;
  else if (options_.view == "tree") view_ = View::tree;
  else if (options_.view == "beyond") view_ = View::beyond;
  else if (series_.empty() && !traces_.empty()) view_ = View::tree;
  else if (series_.empty() && !tables_.empty()) view_ = View::beyond;
  else view_ = View::throughput;
  sync_frames();
  if (options_.frame >= 0) playback_.scrub(options_.frame);
  else if (options_.screenshot) playback_.last();
}

void App::sync_frames() {
  int frames = 1;
  for (int i : {left_, right_}) {
    if (i >= 0 && i < static_cast<int>(traces_.size())) {
      frames = std::max(frames, static_cast<int>(traces_[static_cast<std::size_t>(i)]->layout.frames.size()));
    }
  }
  playback_.set_frame_count(frames);
}

void App::drop(const std::vector<std::string>& paths) { pending_.insert(pending_.end(), paths.begin(), paths.end()); }

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
  tab("Reduction tree", View::tree);
  tab("Beyond the sum", View::beyond);
  ImGui::SameLine(0, 24);
  ImGui::SetNextItemWidth(std::max(120.f, ImGui::GetContentRegionAvail().x - 200.f));
  const bool enter = ImGui::InputTextWithHint("##path", "path of a results or trace JSON (or drop files on the window)", path_box_,
                                              sizeof path_box_, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Load") || enter) && path_box_[0]) {
    const std::size_t before = traces_.size();
    load(path_box_);
    if (traces_.size() > before) view_ = View::tree;
    path_box_[0] = 0;
  }
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1), "%zu results, %zu tables, %zu traces", results_.size(), tables_.size(),
                     traces_.size());
}

void App::error_strip() {
  if (errors_.empty()) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (std::size_t i = 0; i < errors_.size(); ++i) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetFrameHeight();
    dl->AddRectFilled(p, {p.x + ImGui::GetContentRegionAvail().x, p.y + h}, kErrorColor);
    ImGui::PushID(static_cast<int>(i));
    ImGui::SetCursorScreenPos({p.x + 6, p.y + ImGui::GetStyle().FramePadding.y});
    ImGui::TextUnformatted(("error: " + errors_[i]).c_str());
    ImGui::SameLine();
    ImGui::SetCursorScreenPos({p.x + ImGui::GetContentRegionAvail().x - 24, p.y});
    const bool close = ImGui::SmallButton("x");
    ImGui::SetCursorScreenPos({p.x, p.y + h + 2});
    ImGui::PopID();
    if (close) {
      errors_.erase(errors_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  ImGui::Dummy({0, 0});
}

void App::tree_view(ImVec2 size) {
  if (traces_.empty()) {
    ImGui::TextUnformatted("No traces loaded. Write one with a lesson's --trace FILE and load it with the path box above.");
    return;
  }
  // Pickers and playback controls.
  auto picker = [&](const char* label, int& index, bool allow_none) {
    const char* shown = index >= 0 ? traces_[static_cast<std::size_t>(index)]->label.c_str() : "(none)";
    ImGui::SetNextItemWidth(std::min(420.f, size.x * 0.3f));
    if (ImGui::BeginCombo(label, shown)) {
      if (allow_none && ImGui::Selectable("(none)", index < 0)) index = -1;
      for (int i = 0; i < static_cast<int>(traces_.size()); ++i) {
        if (ImGui::Selectable(traces_[static_cast<std::size_t>(i)]->label.c_str(), i == index)) index = i;
      }
      ImGui::EndCombo();
      sync_frames();
    }
  };
  left_ = std::clamp(left_, 0, static_cast<int>(traces_.size()) - 1);
  picker("##left", left_, false);
  ImGui::SameLine();
  picker("compare with##right", right_, true);
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
  // Frames counted from 1 here, as the tree's header counts them ("frame 3/7").
  int f = playback_.frame() + 1;
  ImGui::SetNextItemWidth(std::max(80.f, ImGui::GetContentRegionAvail().x - 170.f));
  if (ImGui::SliderInt("##scrub", &f, 1, playback_.frame_count(), "frame %d")) playback_.scrub(f - 1);
  ImGui::SameLine();
  float speed = static_cast<float>(playback_.speed());
  ImGui::SetNextItemWidth(110);
  if (ImGui::SliderFloat("##speed", &speed, 0.25f, 30.f, "%.2f frames/s", ImGuiSliderFlags_Logarithmic)) playback_.set_speed(speed);

  const bool two = right_ >= 0 && right_ < static_cast<int>(traces_.size()) && right_ != left_;
  const float gap = 8.f;
  const float col_w = two ? (size.x - gap) / 2 : size.x;
  const float avail_h = ImGui::GetContentRegionAvail().y;
  const float source_h = std::clamp(avail_h * 0.3f, 90.f, 260.f);
  const float tree_h = avail_h - source_h - 8.f;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  auto column = [&](int index, TreeView& tv, const char* id, float x) {
    TraceDoc& doc = *traces_[static_cast<std::size_t>(index)];
    ImGui::SetCursorScreenPos({x, top.y});
    ImGui::BeginGroup();
    ImGui::PushClipRect({x, top.y}, {x + col_w, top.y + avail_h}, true);
    const int frame = std::min(playback_.frame(), static_cast<int>(doc.layout.frames.size()) - 1);
    const double progress = frame == playback_.frame() ? playback_.progress() : 1.0;
    tv.draw(id, doc, frame, progress, {col_w, tree_h - ImGui::GetTextLineHeightWithSpacing() * 2});
    // The lines of this frame's own events: the additions, shuffles and stores, and its barriers.
    const std::vector<int>& lines = frame_lines(doc.layout, frame);
    doc.source.draw((std::string(id) + "src").c_str(), {col_w, source_h}, lines.data(), static_cast<int>(lines.size()));
    ImGui::PopClipRect();
    ImGui::EndGroup();
  };
  column(left_, tree_left_, "left", top.x);
  if (two) column(right_, tree_right_, "right", top.x + col_w + gap);
}

void App::frame(ImVec2 display, double dt) {
  if (!pending_.empty()) {
    const auto files = std::move(pending_);
    pending_.clear();
    const std::size_t before = traces_.size();
    for (const auto& p : files) load(p);
    if (traces_.size() > before) {
      view_ = View::tree;
      left_ = static_cast<int>(before);
      sync_frames();
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
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoBackground);  // the GL clear is the background: one full-window blend less
  toolbar();
  error_strip();
  ImGui::Separator();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  switch (view_) {
    case View::throughput: throughput_.draw(results_, series_, avail); break;
    case View::bars: bars_.draw(series_, avail); break;
    case View::tree: tree_view(avail); break;
    case View::beyond: beyond_.draw(tables_, avail); break;
  }
  ImGui::End();
}

}  // namespace rl::viewer
