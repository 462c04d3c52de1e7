#pragma once
// Watch mode's logic (reducelab_viewer --watch NN): which commands a round runs, what their output
// means in one line, and the round's state machine, idle -> building -> grading -> tracing ->
// shown. No ImGui, no files, no processes: the watcher (watcher.h) runs the commands this names and
// hands back what they printed; the tests feed it canned outputs.
#include <optional>
#include <string>
#include <vector>

namespace rl::viewer {

// The lesson a student watches and the two builds a round uses (watch_files.h finds them).
struct WatchTarget {
  std::string folder;      // "03_sequential_addressing": the lesson's folder, target and executable
  std::string watched;     // the file whose saves start a round (absolute)
  std::string shown_name;  // the same, as the student knows it (relative to the tree)
  std::string source_root;    // the tree the student build compiles (absolute): paths are cut to it
  std::string student_build;  // absolute
  std::string solution_build;   // absolute
  std::string cmake = "cmake";  // the cmake that configured the student build
};

// The input both traces are recorded at: small, so the tree view shows every block.
inline constexpr int kWatchTraceN = 1000;

// One command of a round: its argv, its time limit, and the file it writes (a trace) or "".
struct Command {
  std::vector<std::string> argv;
  double timeout_s = 0;
  std::string writes;
};

Command build_command(const WatchTarget& t);
Command grade_command(const WatchTarget& t);
// The student's kernel (solution false) or the solution's, traced on the simulator at kWatchTraceN
// into `path`.
Command trace_command(const WatchTarget& t, bool solution, const std::string& path);

// What a command left: its exit status (or why it could not start, or that it ran out of time), all
// it printed (stdout and stderr together), and the text of the file it was to write ("" if none).
struct StepOutput {
  int exit_code = 0;
  bool timed_out = false;
  std::string start_error;  // "cannot run X: No such file or directory"; empty when it ran
  std::string output;
  std::string written;
};

// The first compiler error of a build log as "file:line: message" (g++'s "file:line:col: error:" or
// nvcc's "file(line): error"), the file relative to `root` where it lies inside it; else the first
// line that says "error", else the last line. Colour escapes are dropped.
std::string first_build_error(const std::string& log, const std::string& root);

// The grader's verdict (`<exe> --grade`), read as lessons/grade.sh reads it: the last "result:",
// "bug class:" (its name, without the explanation in brackets), "first failure:" and "hint:" lines.
struct GradeVerdict {
  std::string result;   // PASSED, FAILED, SKIPPED; empty when the grader printed none
  std::string bug;      // "race"
  std::string failure;  // the first failing case and what went wrong
  std::string hint;     // the command that prints the hint for this class of bug
  std::string summary;  // "all 190 cases right"
};
GradeVerdict parse_grade(const std::string& output);

// What a round found.
struct RoundResult {
  enum class Kind { none, does_not_compile, failed, passed };
  Kind kind = Kind::none;
  std::string
      line;  // one line: the verdict and why ("FAILED [race]: ...", "DOES NOT COMPILE: ...")
  std::string hint;            // the grader's hint line, for a failure
  std::string trace;           // the student's trace (JSON text); empty when none was recorded
  std::string solution_trace;  // the solution's, at the same input
  std::string trace_note;      // why a trace is missing, in one line; empty when both are there
  int round = 0;               // counted from 1
};

enum class Phase { idle, building, grading, tracing, shown };
const char* to_string(Phase p);

// One round after another, never two at once. Each call returns the command to run next, if any;
// the caller runs it and reports with finished().
class WatchMachine {
 public:
  explicit WatchMachine(WatchTarget target, std::string trace_dir);

  // The file was saved (or the watch starts): a round begins, unless one is running, in which
  // case one more round follows it (however many saves came meanwhile).
  std::optional<Command> changed();
  // The command last returned has ended.
  std::optional<Command> finished(const StepOutput& out);

  Phase phase() const { return phase_; }
  // One line for the window: what is being done, or the last round's verdict.
  std::string status_line() const;
  // The last round that ended (round 0: none yet).
  const RoundResult& result() const { return result_; }
  const WatchTarget& target() const { return target_; }

 private:
  std::optional<Command> start_round();
  std::optional<Command> end_round();

  WatchTarget target_;
  std::string trace_dir_;
  Phase phase_ = Phase::idle;
  bool again_ = false;          // a save came during the round
  bool solution_step_ = false;  // tracing: the solution's trace is the one running
  RoundResult current_;         // the round in progress
  RoundResult result_;          // the last one that ended
  int rounds_ = 0;
  int traced_round_ = 0;  // the last round that left the student's trace (0: none)
};

// --watch-once's report: the verdict, the hint, and (given a line comparing the two traces, or why
// there are none) the traces; lines ending in '\n'.
std::string round_report(const WatchTarget& t, const RoundResult& r, const std::string& traces);

}  // namespace rl::viewer
