#pragma once
// Watch mode's engine: notices the student's saves (ChangeDetector) and runs each round's commands
// (WatchMachine) one after another on a thread of its own, so the window keeps drawing; the main
// loop asks it once a frame for what to show. --watch-once runs one round to its end, with no
// window. No ImGui (watch_view.h draws its status).
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "viewer/watch_files.h"
#include "viewer/watch_model.h"

namespace rl::viewer {

// What the window shows of the watch, copied out under the watcher's lock.
struct WatchStatus {
  Phase phase = Phase::idle;
  std::string line;     // what is being done, or the last round's verdict
  std::string verdict;  // the last round's verdict (line, once it has been shown)
  std::string hint;     // the last round's hint, for a failure
  std::string note;     // why the last round's tree is missing or incomplete
  RoundResult::Kind kind = RoundResult::Kind::none;
  int round = 0;      // the last round that ended
  double busy_s = 0;  // how long the current step has run (0 when idle)
};

class Watcher {
 public:
  // The traces are written into a folder of their own under $TMPDIR, removed at the end.
  explicit Watcher(WatchTarget target);
  ~Watcher();  // stops the command in flight and waits for the thread
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // A round now (the first, when the watch starts), as a save would start one.
  void start_round();
  // Once a frame: looks for a save (at most twice a second) and starts a round for it; returns the
  // round that has ended since the last call, once.
  std::optional<RoundResult> poll(double now_s);
  WatchStatus status() const;
  // --watch-once: one round to its end (blocking), and its result.
  RoundResult run_once();
  const WatchTarget& target() const { return target_; }

 private:
  void work();

  WatchTarget target_;
  std::string trace_dir_;
  ChangeDetector detector_;
  mutable std::mutex mutex_;  // guards everything below but stop_
  std::condition_variable wake_;
  WatchMachine machine_;
  std::optional<Command> next_;       // the command the thread runs next
  std::optional<RoundResult> ended_;  // a round that ended, not yet handed to poll()
  std::chrono::steady_clock::time_point step_started_{};
  std::atomic<bool> stop_{false};  // also cancels the command in flight
  std::thread thread_;
};

// One line on the two traces of a round: their sizes, whether they are of the same input, and the
// first write in which they differ (the tree view's comparison, compare_traces); or why a trace is
// missing.
std::string describe_traces(const RoundResult& r);

}  // namespace rl::viewer
