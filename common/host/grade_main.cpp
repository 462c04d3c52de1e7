#include "common/host/grade_main.h"

#include <cstring>
#include <sstream>

#include "common/host/fault_report.h"
#include "common/host/grading.h"
#include "common/host/harness.h"
#include "common/host/hints.h"
#include "common/host/table.h"
#include "common/host/watchdog.h"

namespace rl {
namespace {

// What the child said, read back: its backend, the case it was on, and how it ended.
struct Said {
  std::string backend, last_case, verdict, detail;
};

Said read_lines(const std::vector<std::string>& lines) {
  Said s;
  for (const std::string& l : lines) {
    const auto space = l.find(' ');
    const std::string word = l.substr(0, space), rest = space == std::string::npos ? "" : l.substr(space + 1);
    if (word == "backend") s.backend = rest;
    else if (word == "case") s.last_case = rest;
    else s.verdict = word, s.detail = rest;  // pass, fail, skip, fault or error: the last word wins
  }
  return s;
}

}  // namespace

int grade_lesson(std::ostream& out, const std::string& program_path, int number, const std::vector<Reducer>& mine,
                 const RunOptions& options) {
  const Reducer& own = mine.front();
  return grade_in_child(
      out, program_path, number, std::string(own.slug), std::string(own.source), options.case_timeout_s,
      [&](const Reporter& reporter) {
        std::ostringstream banner;
        auto device = open_device(options, banner);
        reporter.say("backend " + banner.str().substr(0, banner.str().find('\n')));
        bool any = false;
        for (const Reducer& r : mine) any = any || r.backend == device->backend();
        if (!any) {
          reporter.say("skip this lesson calls NVIDIA's compiled libraries: it has no " +
                       std::string(to_string(device->backend())) + " version to grade");
          return exit_skipped;
        }
        const Grade g = grade_reducers(*device, mine, options, [&](const std::string& c) { reporter.say("case " + c); });
        reporter.say(g.passed ? "pass " + std::to_string(g.cases_run) + " cases" : "fail " + g.failure);
        return g.passed ? exit_ok : exit_failed;
      });
}

int grade_in_child(std::ostream& out, const std::string& program_path, int number, const std::string& slug,
                   const std::string& source, double case_timeout_s, const std::function<int(const Reporter&)>& work) {
  out << "grading lesson " << (number < 10 ? "0" : "") << number << " " << slug << " ("
      << (source.empty() ? std::string("its kernel header") : source) << "), " << case_timeout_s
      << " s without progress counts as a hang\n";

  const WatchedRun run = run_watched(
      [&](const Reporter& reporter) {
        report_kernel_faults(reporter.fd(), "fault ", 4);  // a fault's report goes to the parent, as a line
        return work(reporter);
      },
      case_timeout_s);

  const Said s = read_lines(run.lines);
  if (!s.backend.empty()) out << s.backend << '\n';
  std::string result = "FAILED", failure;
  int code = exit_failed;
  if (run.end == WatchedRun::End::silent) {
    failure = (s.last_case.empty() ? std::string("before the first case") : s.last_case) + ": no progress for " +
              general(case_timeout_s, 3) +
              " s, so the grader stopped it: the kernel hangs (a loop whose condition never changes, or threads "
              "waiting for others that never come)";
  } else if (s.verdict == "pass" && run.code == exit_ok) {
    result = "PASSED", code = exit_ok;
    out << "all " << s.detail << " right\n";
  } else if (s.verdict == "skip") {
    result = "SKIPPED", code = exit_skipped;
    out << s.detail << '\n';
  } else if (s.verdict == "fail" || s.verdict == "error") {
    failure = s.detail;
  } else if (s.verdict == "fault") {
    failure = s.last_case + ": " + s.detail;
  } else {
    failure = (s.last_case.empty() ? std::string("before the first case") : s.last_case) + ": the program " +
              (run.end == WatchedRun::End::signalled ? "was killed by signal " + std::to_string(run.code) + " (" +
                                                           strsignal(run.code) + ")"
                                                     : "exited with code " + std::to_string(run.code)) +
              " without a verdict";
  }
  out << "result: " << result << '\n';
  if (code == exit_failed) {
    out << "first failure: " << failure << '\n';
    out << "hint: " << program_path << " --hint 1   (hints from a nudge to nearly the answer: " << hints_path(number)
        << ")\n";
  }
  return code;
}

}  // namespace rl
