#pragma once
// Runs work in a child process, so that a kernel that hangs or crashes cannot take the caller with
// it: the grader's timeout. The child reports in lines; the parent kills it once no line has come
// for `quiet_limit_s` seconds, so slow but progressing work is never cut off.
#include <functional>
#include <string>
#include <vector>

namespace rl {

class Reporter {
 public:
  explicit Reporter(int fd) : fd_(fd) {}
  void say(const std::string& line) const;  // one line to the parent (newlines become spaces)
  int fd() const { return fd_; }

 private:
  int fd_;
};

struct WatchedRun {
  enum class End { exited, signalled, silent };
  End end = End::exited;
  int code = 0;                    // the exit code, or the signal that ended the child
  std::vector<std::string> lines;  // everything the child said, in order
  double quiet_limit_s = 0;
};

WatchedRun run_watched(const std::function<int(const Reporter&)>& work, double quiet_limit_s);

}  // namespace rl
