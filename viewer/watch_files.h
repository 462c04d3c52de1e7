#pragma once
// Watch mode's files: which lesson and which file --watch NN watches, in which student build, beside
// which solution build (refused in one line when any is missing); and the change detector that
// notices the student saving that file. No ImGui.
#include <cstdint>
#include <functional>
#include <string>

#include "viewer/watch_model.h"

namespace rl::viewer {

struct WatchRequest {
  std::string lesson;          // --watch: "03" (or "3")
  std::string student_build;   // --student-build; "": <the tree>/build-student
  std::string solution_build;  // --solution-build; "": the viewer's own build
  std::string viewer_build;    // the viewer's own build
  std::string viewer_tree;     // the tree the viewer was built from (build-student's default home)
  // Whether lesson N's kernel is traced on the simulator (the course list says; tests say yes).
  std::function<bool(int)> traced;
};

// The watch target, or the one line that says why there is none (error empty on success).
struct FoundTarget {
  WatchTarget target;
  std::string error;
};
FoundTarget find_watch_target(const WatchRequest& r);

// Notices saves of one file, looking at it at most every `interval_s` (the main loop calls poll each
// frame). A save counts once: once the file's time or size has changed and then stayed the same for
// one look, since an editor often saves in several writes (truncate and write, or write a copy and
// rename it). A file that is gone for a moment (between a rename's two halves) is not a save.
class ChangeDetector {
 public:
  explicit ChangeDetector(std::string path, double interval_s = 0.5);
  bool poll(double now_s);  // true once per save
  const std::string& path() const { return path_; }

 private:
  struct Stamp {
    bool exists = false;
    std::int64_t mtime = 0;  // in the file clock's ticks
    std::uintmax_t size = 0;
    bool operator==(const Stamp&) const = default;
  };
  Stamp stamp() const;

  std::string path_;
  double interval_s_;
  bool looked_ = false;
  double last_look_ = 0;
  Stamp seen_;             // what the last look found
  bool settling_ = false;  // seen_ is new: a save once the next look finds it unchanged
};

}  // namespace rl::viewer
