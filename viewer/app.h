#pragma once
// The viewer's state and its one window: a toolbar (views, path box), the error strip, and the
// current view (throughput plot, ladder bars, or one or two trace trees with their sources).
#include <imgui.h>

#include <memory>
#include <string>
#include <vector>

#include "viewer/bar_view.h"
#include "viewer/comparison_view.h"
#include "viewer/playback.h"
#include "viewer/results_model.h"
#include "viewer/throughput_view.h"
#include "viewer/tree_view.h"

namespace rl::viewer {

enum class View { throughput, bars, tree, beyond };

struct AppOptions {
  std::vector<std::string> results;
  std::vector<std::string> traces;
  int frame = -1;  // frame (launch, level) to show, from 0 (--step); -1: the first (interactive) or the last (screenshot)
  std::string view;  // "", "throughput", "bars", "tree", "beyond"
  std::string source_root;
  bool screenshot = false;
  bool loop = false;
};

class App {
 public:
  explicit App(AppOptions options);

  // Loads a results or trace file (told apart by its schema); a bad file adds a one-line error
  // to the strip and to stderr, and the program goes on.
  void load(const std::string& path);
  // With no files named: every assets/results/*.json and assets/traces/*.json that exists.
  void load_defaults();
  // Applies --view and --step once the files are in.
  void start();

  void frame(ImVec2 display, double dt);  // one frame of UI (between NewFrame and Render)
  void drop(const std::vector<std::string>& paths);

  Playback& playback() { return playback_; }
  View view() const { return view_; }
  void set_view(View v) { view_ = v; }
  const std::vector<std::string>& errors() const { return errors_; }
  std::size_t trace_count() const { return traces_.size(); }

 private:
  void error(const std::string& line);
  void toolbar();
  void error_strip();
  void tree_view(ImVec2 size);
  void sync_frames();

  AppOptions options_;
  View view_ = View::throughput;
  std::vector<ResultsFile> results_;
  std::vector<Series> series_;
  std::vector<std::unique_ptr<TraceDoc>> traces_;
  int left_ = 0;    // trace shown on the left
  int right_ = -1;  // trace shown on the right; -1: none
  Playback playback_;
  ThroughputView throughput_;
  BarView bars_;
  ComparisonView beyond_;
  std::vector<ComparisonFile> tables_;  // lessons 13-16
  TreeView tree_left_, tree_right_;
  std::vector<std::string> errors_;
  std::vector<std::string> pending_;  // dropped files, loaded at the next frame
  char path_box_[1024] = "";
};

std::string default_source_root();

}  // namespace rl::viewer
