#include "viewer/watch_model.h"

#include <regex>
#include <sstream>
#include <utility>

namespace rl::viewer {
namespace {

// Time limits of a round's steps: a cold build of one lesson takes a minute or two on two cores;
// the grader stops a hanging case by itself after 20 s (its --case-timeout), so its whole run is
// bounded well under this; a trace at n = 1000 takes well under a second unless the kernel never
// ends, which the limit then stops.
constexpr double kBuildLimitS = 600;
constexpr double kGradeLimitS = 300;
constexpr double kTraceLimitS = 60;

// Lines of `text`, without their '\r' (a log written through a terminal has them).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

// Drops ANSI colour escapes: CMake asks g++ for colour under Ninja even when the output is a pipe.
// Also turns g++'s typographic quotes (in a UTF-8 locale) into plain ones: the window's font has
// no glyph for them.
std::string plain_text(const std::string& s) {
  static const std::regex escape("\x1b\\[[0-9;]*[A-Za-z]");
  const std::string in = std::regex_replace(s, escape, "");
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    // U+2018 and U+2019 in UTF-8: E2 80 98, E2 80 99.
    if (in.compare(i, 2, "\xe2\x80") == 0 && i + 2 < in.size() &&
        (in[i + 2] == '\x98' || in[i + 2] == '\x99')) {
      out += '\'';
      i += 2;
    } else {
      out += in[i];
    }
  }
  return out;
}

std::string cut_root(std::string path, const std::string& root) {
  const std::string prefix = root.empty() || root.back() == '/' ? root : root + "/";
  if (!prefix.empty() && path.rfind(prefix, 0) == 0) path.erase(0, prefix.size());
  return path;
}

// Long lines are cut: the status line is one line of the window, not the whole log.
std::string clip(std::string s, std::size_t max = 300) {
  if (s.size() > max) s = s.substr(0, max - 3) + "...";
  return s;
}

std::string last_nonempty(const std::vector<std::string>& lines) {
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (it->find_first_not_of(" \t") != std::string::npos) return *it;
  return "";
}

// After "prefix" on the last line that starts with it, else "".
std::string last_value(const std::vector<std::string>& lines, const std::string& prefix) {
  std::string value;
  for (const auto& l : lines)
    if (l.rfind(prefix, 0) == 0) value = l.substr(prefix.size());
  return value;
}

// Why a step that did not succeed failed, in a few words.
std::string step_failure(const StepOutput& out, double limit_s) {
  if (!out.start_error.empty()) return out.start_error;
  if (out.timed_out) return "stopped after " + std::to_string(static_cast<int>(limit_s)) + " s";
  return clip(last_nonempty(lines_of(plain_text(out.output))), 200);
}

}  // namespace

Command build_command(const WatchTarget& t) {
  return {{t.cmake, "--build", t.student_build, "--target", t.folder}, kBuildLimitS, ""};
}

Command grade_command(const WatchTarget& t) {
  return {{t.student_build + "/bin/" + t.folder, "--grade", "--backend", "sim"}, kGradeLimitS, ""};
}

Command trace_command(const WatchTarget& t, bool solution, const std::string& path) {
  const std::string exe = (solution ? t.solution_build : t.student_build) + "/bin/" + t.folder;
  // --check-only: the trace needs one checked run, not the timed samples after it. `--variant
  // graded`: the kernel the exercise asks for (a variant in most lessons), in both builds.
  return {{exe, "--backend", "sim", "--n", std::to_string(kWatchTraceN), "--check-only",
           "--variant", "graded", "--trace", path},
          kTraceLimitS,
          path};
}

std::string first_build_error(const std::string& log, const std::string& root) {
  const std::vector<std::string> lines = lines_of(plain_text(log));
  // g++/clang: "file:line:col: error: message" (col optional; "fatal error" for a missing header).
  static const std::regex gcc(R"(^(.+?):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$)");
  // nvcc: "file(line): error: message" (or "error #20: ...").
  static const std::regex nvcc(R"(^(.+?)\((\d+)\): (?:catastrophic )?error[^:]*: (.*)$)");
  for (const auto& l : lines) {
    std::smatch m;
    if (std::regex_match(l, m, gcc) || std::regex_match(l, m, nvcc))
      return clip(cut_root(m[1], root) + ":" + m[2].str() + ": " + m[3].str());
  }
  // A linker's or CMake's error has no line: the first line that says so.
  for (const auto& l : lines)
    if (l.find("error") != std::string::npos && l.rfind("FAILED: ", 0) != 0)
      return clip(cut_root(l, root));
  return clip(last_nonempty(lines));
}

GradeVerdict parse_grade(const std::string& output) {
  const std::vector<std::string> lines = lines_of(plain_text(output));
  GradeVerdict v;
  v.result = last_value(lines, "result: ");
  v.failure = last_value(lines, "first failure: ");
  v.hint = last_value(lines, "hint: ");
  v.bug = last_value(lines, "bug class: ");
  // "race (two threads touch ...)": the name only, as grade.sh shows it.
  if (const auto bracket = v.bug.find(" ("); bracket != std::string::npos) v.bug.resize(bracket);
  for (const auto& l : lines)
    if (l.rfind("all ", 0) == 0 && l.find(" cases right") != std::string::npos) v.summary = l;
  return v;
}

const char* to_string(Phase p) {
  switch (p) {
    case Phase::idle:
      return "watching";
    case Phase::building:
      return "building";
    case Phase::grading:
      return "grading";
    case Phase::tracing:
      return "tracing";
    case Phase::shown:
      return "result";
  }
  return "?";
}

WatchMachine::WatchMachine(WatchTarget target, std::string trace_dir)
    : target_(std::move(target)), trace_dir_(std::move(trace_dir)) {}

std::optional<Command> WatchMachine::changed() {
  if (phase_ == Phase::idle || phase_ == Phase::shown) return start_round();
  again_ = true;  // one more round once this one ends, however many saves come meanwhile
  return std::nullopt;
}

std::optional<Command> WatchMachine::start_round() {
  again_ = false;
  current_ = RoundResult{};
  current_.round = ++rounds_;
  phase_ = Phase::building;
  return build_command(target_);
}

std::optional<Command> WatchMachine::finished(const StepOutput& out) {
  const bool ok = out.start_error.empty() && !out.timed_out && out.exit_code == 0;
  switch (phase_) {
    case Phase::idle:
    case Phase::shown:
      return std::nullopt;  // nothing was running
    case Phase::building:
      if (!ok) {
        current_.kind = RoundResult::Kind::does_not_compile;
        std::string why = out.start_error.empty() && !out.timed_out
                              ? first_build_error(out.output, target_.source_root)
                              : step_failure(out, kBuildLimitS);
        if (why.empty())  // a build that failed silently still gets a reason
          why =
              "the build exited with status " + std::to_string(out.exit_code) + " and said nothing";
        current_.line = "DOES NOT COMPILE: " + why;
        // Nothing to grade or trace: the window keeps the trees of the last round that had them.
        if (traced_round_ > 0)
          current_.trace_note = "the trees below are round " + std::to_string(traced_round_) +
                                "'s, the last that compiled";
        return end_round();
      }
      phase_ = Phase::grading;
      return grade_command(target_);
    case Phase::grading: {
      const GradeVerdict v = parse_grade(out.output);
      current_.kind = v.result == "PASSED" ? RoundResult::Kind::passed : RoundResult::Kind::failed;
      if (v.result == "PASSED") {
        current_.line = "PASSED" + (v.summary.empty() ? "" : ": " + v.summary);
      } else if (v.result.empty()) {
        // No verdict at all: the grader itself could not run, or was stopped.
        current_.line = "FAILED: the grader gave no verdict: " + step_failure(out, kGradeLimitS);
      } else {
        current_.line = clip(v.result + (v.bug.empty() ? "" : " [" + v.bug + "]") +
                                 (v.failure.empty() ? "" : ": " + v.failure),
                             400);
        current_.hint = v.hint;
      }
      // A failing kernel is traced too: its tree beside the solution's shows where it goes wrong.
      phase_ = Phase::tracing;
      solution_step_ = false;
      return trace_command(target_, false, trace_dir_ + "/yours.json");
    }
    case Phase::tracing:
      if (!solution_step_) {
        current_.trace = out.written;  // a wrong kernel's trace is written, whatever it exits with
        if (out.written.empty())
          current_.trace_note = "no trace of your kernel: " + step_failure(out, kTraceLimitS);
        solution_step_ = true;
        return trace_command(target_, true, trace_dir_ + "/solution.json");
      }
      current_.solution_trace = out.written;
      if (!current_.trace.empty()) traced_round_ = current_.round;
      if (out.written.empty() && current_.trace_note.empty())
        current_.trace_note =
            "no trace of the solution: " + step_failure(out, kTraceLimitS) +
            (out.start_error.empty() ? ""
                                     : " (build it: cmake --build " + target_.solution_build +
                                           " --target " + target_.folder + ")");
      return end_round();
  }
  return std::nullopt;
}

std::optional<Command> WatchMachine::end_round() {
  result_ = current_;
  if (again_) return start_round();  // the file changed while this round ran
  phase_ = Phase::shown;
  return std::nullopt;
}

std::string WatchMachine::status_line() const {
  switch (phase_) {
    case Phase::idle:
      return "watching " + target_.shown_name + ": save it to build, grade and trace it";
    case Phase::building:
      return "building " + target_.folder + " (round " + std::to_string(rounds_) + ") ...";
    case Phase::grading:
      return "grading " + target_.folder + " on the simulator ...";
    case Phase::tracing:
      return "tracing yours and the solution at n = " + std::to_string(kWatchTraceN) + " ...";
    case Phase::shown:
      return result_.line;
  }
  return "";
}

std::string round_report(const WatchTarget& t, const RoundResult& r, const std::string& traces) {
  std::string out = "watch " + t.folder + ": " + t.shown_name + ", round " +
                    std::to_string(r.round) + "\n" + "result: " + r.line + "\n";
  if (!r.hint.empty()) out += "hint: " + r.hint + "\n";
  if (!traces.empty()) out += "traces: " + traces + "\n";
  return out;
}

}  // namespace rl::viewer
