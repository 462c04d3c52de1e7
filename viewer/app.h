#pragma once
// The viewer's state and its one window: a toolbar (views, path box, what is loaded), the error
// strip, and the current view: one run's throughput or ladder bars, lesson 22's several-GPU
// scaling, the tables beyond the sum, or one or two traces' step figures with their sources.
#include <imgui.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "viewer/bar_view.h"
#include "viewer/counter_text.h"
#include "viewer/playback.h"
#include "viewer/profile_model.h"
#include "viewer/results_model.h"
#include "viewer/run_panel.h"
#include "viewer/scaling_view.h"
#include "viewer/tables_view.h"
#include "viewer/throughput_view.h"
#include "viewer/trace_compare.h"
#include "viewer/tree_view.h"

namespace rl::viewer {

enum class View { throughput, bars, scaling, tables, tree, run };

struct AppOptions {
  std::vector<std::string> results;
  std::vector<std::string> traces;
  std::vector<std::string> profiles;
  // --step: the step to open at, from 1; 0: the first step in which a thread adds
  int step = 0;
  std::string view;    // "", "throughput", "bars", "scaling", "tables", "tree"
  std::string device;  // --device: a substring of the device to plot first
  // --point LESSON[/VARIANT][@N]: the throughput point selected at the start (lesson -1: none;
  // n 0: the one nearest the profiled n)
  std::string point;
  int point_lesson = -1;
  std::string point_variant;
  double point_n = 0;
  std::string source_root;
  bool screenshot = false;
  bool loop = false;
  RunLimits run_limits;  // the Run panel's (the web page's are tighter)
  // load_defaults loads the results, the profile and the traces one file a frame, after the first
  // (the web page: its first frame comes before any file has been read)
  bool defer_loads = false;
};

class App {
 public:
  explicit App(AppOptions options);

  // Loads a results, trace or profile file (told apart by its schema); a bad file adds a one-line
  // error to the strip and to stderr, counts as a failed load, and the program goes on.
  void load(const std::string& path);
  // With no results or traces named: every assets/results/*.json and assets/traces/*.json that
  // exists, and, with `profile` (no profile named), assets/profiles/h100-profile.json if it exists.
  // Traces still in format version 1 (not yet recorded again) are skipped with one note, not an
  // error.
  void load_defaults(bool profile);
  // Applies --view, --device, --point and --step once the files are in.
  void start();

  void frame(ImVec2 display, double dt);  // one frame of UI (between NewFrame and Render)
  void drop(const std::vector<std::string>& paths);
  // A trace file's text (a run's, say), shown as `name`; its index, or -1 when it did not load (the
  // error strip says why).
  int add_trace(const std::string& text, const std::string& name);
  // The same, in place of trace `replace` (-1: added).
  int put_trace(const std::string& text, const std::string& name, int replace);
  RunPanel& run_panel() { return run_panel_; }
  // Two traces side by side in the tree view, compared: a run beside the solution's run, a watched
  // lesson beside its solution. A pair opened through `slot` (watch mode: each round) replaces the
  // pair opened through it before, at the same step, instead of adding two more traces. `b` may be
  // empty: `a` alone.
  struct PairSlot {
    int index[2] = {-1, -1};
  };
  void open_pair(const std::string& a, const std::string& a_name, const std::string& b,
                 const std::string& b_name, PairSlot* slot = nullptr);
  // Drawn under the toolbar in every view, each frame (watch mode's status line).
  void set_strip(std::function<void()> draw) { strip_ = std::move(draw); }

  Playback& playback() { return playback_; }
  View view() const { return view_; }
  void set_view(View v) { view_ = v; }
  const std::vector<std::string>& errors() const { return errors_; }
  int failed_loads() const { return failed_loads_; }
  std::size_t trace_count() const { return traces_.size(); }

 private:
  void error(const std::string& line);
  void toolbar();
  void error_strip();
  bool run_picker(bool scaling);  // false when no run has what the view needs
  void tree_view(ImVec2 size);
  // Where a profile has the kernel of the trace shown on side k at playback frame `frame`: its
  // counters panel; where profiles are loaded but none has it, a line saying so; else none (false).
  bool counters_of(int k, int frame, CounterPanel& panel);
  void legend(float width);
  void sync_steps();
  void compare_if_changed();
  void focus_on_flags();
  void open_run(const RunOutcome& o);
  bool load_default_trace(const std::string& path);  // false: a version 1 trace, skipped
  void pick_smallest_trace();

  AppOptions options_;
  View view_ = View::throughput;
  std::vector<ResultsFile> results_;
  std::vector<RunResults> runs_;
  int run_ = 0;                        // index into runs_
  std::vector<ProfileFile> profiles_;  // hardware counters, first loaded first asked
  std::vector<std::unique_ptr<TraceDoc>> traces_;
  int left_ = 0;    // trace shown on the left
  int right_ = -1;  // trace shown on the right; -1: none
  TraceComparison comparison_;
  int compared_[2] = {-1, -1};  // the pair comparison_ is of
  Playback playback_;
  ThroughputView throughput_;
  BarView bars_;
  ScalingView scaling_;
  TablesView tables_view_;
  std::vector<LessonTable> tables_;  // lessons 18-21, a merged record split by lesson
  TreeView tree_left_, tree_right_;
  // the focus each side had last frame, to follow the one that moved
  int synced_block_[2] = {-1, -1};
  std::int64_t synced_column_[2] = {-1, -1};
  std::vector<std::string> errors_;
  std::string note_;  // one line that is not an error (skipped version 1 traces)
  int failed_loads_ = 0;
  std::vector<std::string> pending_;  // dropped files, loaded at the next frame
  char path_box_[1024] = "";
  RunPanel run_panel_;
  struct Deferred {
    std::string path;
    bool trace = false;  // a trace (load_default_trace), else results or a profile (load)
  };
  std::vector<Deferred> deferred_;  // default files still to load (defer_loads), the next last
  int skipped_v1_ = 0;
  bool run_opened_ = false;  // a run's trace is shown: loading the defaults leaves the view alone
  std::function<void()> strip_;
};

std::string default_source_root();

}  // namespace rl::viewer
