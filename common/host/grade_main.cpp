#include "common/host/grade_main.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

#include "common/host/fault_report.h"
#include "common/host/grade_record.h"
#include "common/host/grading.h"
#include "common/host/harness.h"
#include "common/host/hints.h"
#include "common/host/input.h"
#include "common/host/reference.h"
#include "common/host/sim_bridge.h"
#include "common/host/table.h"
#include "common/host/watchdog.h"

namespace rl {
namespace {

// What the child said, read back: its backend, the case it was on, the class of a failure, and how
// it ended.
struct Said {
  std::string backend, last_case, bug, verdict, detail;
};

Said read_lines(const std::vector<std::string>& lines) {
  Said s;
  for (const std::string& l : lines) {
    const auto space = l.find(' ');
    const std::string word = l.substr(0, space),
                      rest = space == std::string::npos ? "" : l.substr(space + 1);
    if (word == "backend")
      s.backend = rest;
    else if (word == "case")
      s.last_case = rest;
    else if (word == "bug")
      s.bug = rest;
    else
      s.verdict = word, s.detail = rest;  // pass, fail, skip, fault or error: the last word wins
  }
  return s;
}

// The hint of lesson `number` that matches the bug (hints.h's matching_hint); 1 when there is no
// file.
unsigned hint_for(int number, BugClass bug) {
  std::ifstream in(hints_path(number));
  if (!in) return 1;
  std::stringstream text;
  text << in.rdbuf();
  return std::max(1u, matching_hint(text.str(), bug_tag(bug), bug_keywords(bug)));
}

// A failure, as the child tells the parent: its class, then the line.
void report_failure(const Reporter& reporter, BugClass bug, const std::string& failure) {
  reporter.say("bug " + std::string(bug_tag(bug)));
  reporter.say("fail " + failure);
}

}  // namespace

namespace {

// The trusted side of `--grade --grade-check FILE`: replays a submission's recorded outputs through
// the graded cases, with this build's own inputs (from --grade-seed) and references.
struct NoRecord {
  std::string why;
};

std::string ending(const Recorded& rec) {
  if (rec.end == "silent") return "silent";
  if (rec.end.rfind("signal ", 0) == 0) {
    const int sig = std::stoi(rec.end.substr(7));
    return "the program was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  if (rec.end.rfind("exit ", 0) == 0)
    return "the program exited with code " + rec.end.substr(5) + " before this case";
  return "the program stopped without handing back this case's output";
}

int check_recorded(std::ostream& out, const std::string& program_path, int number,
                   const std::vector<Plan>& mine, const RunOptions& options,
                   const LessonExtras& extras) {
  const Plan& own = mine.front();
  out << "checking lesson " << (number < 10 ? "0" : "") << number << " " << own.slug
      << ": the submission's outputs in " << options.grade_check
      << " against this grader's own inputs (seed " << options.grade_seed << ") and references\n";
  std::ostringstream banner;
  auto device = open_device(options, banner);
  out << banner.str().substr(0, banner.str().find('\n')) << '\n';
  const Backend backend = device->backend();
  const DeviceShape shape = device->shape();
  // a few kilobytes for a whole grade; anything near this is not a grade's outputs
  const Recorded rec = read_recorded(options.grade_check, std::size_t{4} << 20);

  std::string result = "FAILED", failure, last_case;
  BugClass bug = BugClass::crash;
  int code = exit_failed;
  bool any = false;
  for (const Plan& r : mine) any = any || r.backend == backend;
  if (!any) {
    result = "SKIPPED", code = exit_skipped;
    out << "this lesson calls NVIDIA's compiled libraries: it has no " << to_string(backend)
        << " version to grade\n";
  } else if (!rec.malformed.empty()) {
    failure =
        "the outputs the submission handed back are not in the grader's format: " + rec.malformed;
  } else if (rec.backend.empty() && rec.cases.empty()) {
    failure = "the submission handed back no outputs (" +
              (rec.end.empty() ? std::string("it stopped before its first case") : ending(rec)) +
              ")";
  } else if (rec.backend != std::string(to_string(backend))) {
    failure = "the submission ran on the " + rec.backend + " backend; this grade is on the " +
              std::string(to_string(backend));
  } else {
    std::size_t next = 0;
    std::map<std::tuple<std::uint64_t, std::uint64_t, int>, Reference> references;
    const CaseRunner replay = [&](int pass, std::size_t p, std::size_t i, const Plan& r,
                                  const GradeCase& c) -> CaseResult {
      if (next >= rec.cases.size()) throw NoRecord{ending(rec)};
      const RecordedCase& got = rec.cases[next++];
      if (got.pass != pass || got.plan != p || got.index != i)
        throw NoRecord{"the submission handed back case " + std::to_string(got.index) +
                       " of pass " + std::to_string(got.pass) + " where case " + std::to_string(i) +
                       " of pass " + std::to_string(pass) + " belongs"};
      if (got.error) throw std::runtime_error(got.message);
      const auto key = std::make_tuple(c.n, c.seed, static_cast<int>(c.distribution));
      auto ref = references.find(key);
      if (ref == references.end()) {
        std::vector<float> input(static_cast<std::size_t>(c.n));
        fill_run_input(input, c.seed, c.distribution);
        ref = references.emplace(key, reference_sum(input)).first;
      }
      CaseResult res;
      res.plan = r;
      res.n = c.n;
      res.block = c.block;
      const double value = std::bit_cast<float>(got.bits);
      const std::uint64_t depth = r.depth(c.n, c.block, shape);
      res.check = {value, ref->second, tolerance(ref->second, depth),
                   within_tolerance(value, ref->second, depth)};
      return res;
    };
    try {
      const Grade g = grade_with(mine, backend, options.grade_seed, replay,
                                 [&](const std::string& c) { last_case = c; });
      if (!g.passed) {
        failure = g.failure, bug = g.bug;
      } else if (extras.target && rec.target != "ok") {
        bug = BugClass::too_slow;
        failure = rec.target && rec.target->size() > 5 ? rec.target->substr(5)
                                                       : "the speed target was never measured";
      } else {
        result = "PASSED", code = exit_ok;
        out << "all " << g.cases_run + (extras.target ? 1 : 0) << " cases right\n";
      }
    } catch (const NoRecord& missing) {
      if (missing.why == "silent") {
        bug = BugClass::hang;
        failure = last_case + ": no progress for " + general(options.case_timeout_s, 3) +
                  " s, so the grader stopped it: the kernel hangs (a loop whose condition never "
                  "changes, or threads waiting for others that never come)";
      } else {
        failure = last_case + ": " + missing.why;
      }
    }
  }
  out << "result: " << result << '\n';
  if (code == exit_failed) {
    const unsigned hint = hint_for(number, bug);
    out << "bug class: " << to_string(bug) << " (" << bug_meaning(bug) << ")\n";
    out << "first failure: " << failure << '\n';
    out << "hint: " << program_path << " --hint " << hint
        << "   (the one for this class of bug; all of them, "
        << "from a nudge to nearly the answer: " << hints_path(number) << ")\n";
  }
  return code;
}

}  // namespace

int grade_lesson(std::ostream& out, const std::string& program_path, int number,
                 const std::vector<Plan>& mine, const RunOptions& options,
                 const LessonExtras& extras) {
  if (!options.grade_check.empty())
    return check_recorded(out, program_path, number, mine, options, extras);
  const Plan& own = mine.front();
  // In the sandbox: every case's raw output goes to the trusted grader too (grade_record.h).
  const int fd = options.grade_outputs_fd;
  const Reporter record(fd);
  const int code = grade_in_child(
      out, program_path, number, std::string(own.slug), std::string(own.source),
      options.case_timeout_s,
      [&](const Reporter& reporter) {
        std::ostringstream banner;
        auto device = open_device(options, banner);
        reporter.say("backend " + banner.str().substr(0, banner.str().find('\n')));
        if (fd >= 0) record.say("backend " + std::string(to_string(device->backend())));
        bool any = false;
        for (const Plan& r : mine) any = any || r.backend == device->backend();
        if (!any) {
          reporter.say("skip this lesson calls NVIDIA's compiled libraries: it has no " +
                       std::string(to_string(device->backend())) + " version to grade");
          return exit_skipped;
        }
        const auto progress = [&](const std::string& c) { reporter.say("case " + c); };
        const auto seen = [&](int pass, std::size_t plan, std::size_t index, const CaseResult* r,
                              const char* error) {
          if (fd < 0) return;
          record.say(r ? recorded_out(pass, plan, index, static_cast<float>(r->check.got))
                       : recorded_error(pass, plan, index, error));
        };
        const Grade g = grade_plans(*device, mine, options, progress, options.grade_seed, seen);
        if (!g.passed) {
          report_failure(reporter, g.bug, g.failure);
          return exit_failed;
        }
        if (extras.target) {
          if (const auto why = extras.target(*device, options, progress)) {
            if (fd >= 0) record.say("target fail " + *why);
            report_failure(reporter, BugClass::too_slow, *why);
            return exit_failed;
          }
          if (fd >= 0) record.say("target ok");
        }
        reporter.say("pass " + std::to_string(g.cases_run + (extras.target ? 1 : 0)) + " cases");
        return exit_ok;
      },
      fd >= 0 ? &record : nullptr);
  return code;
}

int grade_in_child(std::ostream& out, const std::string& program_path, int number,
                   const std::string& slug, const std::string& source, double case_timeout_s,
                   const std::function<int(const Reporter&)>& work, const Reporter* record) {
  out << "grading lesson " << (number < 10 ? "0" : "") << number << " " << slug << " ("
      << (source.empty() ? std::string("its kernel header") : source) << "), " << case_timeout_s
      << " s without progress counts as a hang\n";

  const WatchedRun run = run_watched(
      [&](const Reporter& reporter) {
        // a fault's report goes to the parent, as a line
        report_kernel_faults(reporter.fd(), "fault ", 4);
        return work(reporter);
      },
      case_timeout_s);

  if (record)
    record->say(run.end == WatchedRun::End::silent      ? std::string("end silent")
                : run.end == WatchedRun::End::signalled ? "end signal " + std::to_string(run.code)
                                                        : "end exit " + std::to_string(run.code));
  const Said s = read_lines(run.lines);
  if (!s.backend.empty()) out << s.backend << '\n';
  std::string result = "FAILED", failure;
  BugClass bug = BugClass::crash;
  int code = exit_failed;
  if (run.end == WatchedRun::End::silent) {
    bug = BugClass::hang;
    failure = (s.last_case.empty() ? std::string("before the first case") : s.last_case) +
              ": no progress for " + general(case_timeout_s, 3) +
              " s, so the grader stopped it: the kernel hangs (a loop whose condition never "
              "changes, or threads "
              "waiting for others that never come)";
  } else if (s.verdict == "pass" && run.code == exit_ok) {
    result = "PASSED", code = exit_ok;
    out << "all " << s.detail << " right\n";
  } else if (s.verdict == "skip") {
    result = "SKIPPED", code = exit_skipped;
    out << s.detail << '\n';
  } else if (s.verdict == "fail" || s.verdict == "error") {
    failure = s.detail;
    bug = parse_bug_tag(s.bug).value_or(classify_failure_line(s.detail));
  } else if (s.verdict == "fault") {
    failure = s.last_case + ": " + s.detail;
    bug = classify_kernel_error(s.detail);
  } else {
    failure =
        (s.last_case.empty() ? std::string("before the first case") : s.last_case) +
        ": the program " +
        (run.end == WatchedRun::End::signalled
             ? "was killed by signal " + std::to_string(run.code) + " (" + strsignal(run.code) + ")"
             : "exited with code " + std::to_string(run.code)) +
        " without a verdict";
  }
  out << "result: " << result << '\n';
  if (code == exit_failed) {
    const unsigned hint = hint_for(number, bug);
    out << "bug class: " << to_string(bug) << " (" << bug_meaning(bug) << ")\n";
    out << "first failure: " << failure << '\n';
    out << "hint: " << program_path << " --hint " << hint
        << "   (the one for this class of bug; all of them, "
        << "from a nudge to nearly the answer: " << hints_path(number) << ")\n";
  }
  return code;
}

bool print_hint_if_asked(const RunOptions& o, int number) {
  if (o.hint == 0) return false;
  print_hint(std::cout, number, o.hint);
  return true;
}

int grade_runs(std::ostream& out, const std::string& program_path, int number,
               const std::string& slug, const std::string& source, const RunOptions& options,
               const std::function<std::optional<std::vector<GradedRun>>(Device&)>& cases) {
  return grade_in_child(
      out, program_path, number, slug, source, options.case_timeout_s,
      [&](const Reporter& reporter) {
        std::ostringstream banner;
        auto device = open_device(options, banner);
        reporter.say("backend " + banner.str().substr(0, banner.str().find('\n')));
        const auto runs = cases(*device);
        if (!runs) {
          reporter.say("skip this build has no " + std::string(to_string(device->backend())) +
                       " version to grade");
          return exit_skipped;
        }
        std::size_t count = 0;
        const auto attempt = [&](const GradedRun& r,
                                 std::vector<unsigned char>& bytes) -> std::optional<std::string> {
          reporter.say("case " + r.what);
          ++count;
          try {
            if (auto why = r.run(bytes)) return r.what + ": " + *why;
            // the simulator's report: which barrier, block and thread
          } catch (const std::exception& e) {
            return r.what + ": " + e.what();
          }
          return std::nullopt;
        };
        std::vector<std::vector<unsigned char>> first(runs->size());
        for (std::size_t i = 0; i < runs->size(); ++i)
          if (auto why = attempt((*runs)[i], first[i])) {
            report_failure(reporter, classify_failure_line(*why), *why);
            return exit_failed;
          }
        if (device->backend() == Backend::sim) {
          // Right in lane order may be right by luck: the same cases with the threads of each block
          // resumed in other orders expose a race, and the bytes must not move (the lessons'
          // results are deterministic: their partials meet in a fixed order, never in the order
          // they arrive).
          for (const SimSchedule s : {SimSchedule::reverse_lanes, SimSchedule::shuffled}) {
            RunOptions o = options;
            o.schedule = s;
            apply_simulator_options(o);
            const std::string order = s == SimSchedule::shuffled ? "shuffled" : "reverse";
            for (std::size_t i = 0; i < runs->size(); ++i) {
              if (!(*runs)[i].rerun) continue;
              std::vector<unsigned char> again;
              std::optional<std::string> why = attempt((*runs)[i], again);
              if (why) {
                why = "right in lane order, wrong when the threads run in " + order +
                      " order: a race (a read that no barrier orders after the write it needs). " +
                      *why;
              } else if (again != first[i]) {
                why = "right, but the bits change when the threads run in " + order +
                      " order: the partials must meet in " +
                      "a fixed order, not in the order they arrive. " + (*runs)[i].what;
              }
              if (why) {
                apply_simulator_options(options);
                const BugClass bug = classify_failure_line(*why);
                const bool wrong = bug == BugClass::lost_input || bug == BugClass::never_written;
                report_failure(reporter, wrong ? BugClass::thread_order : bug, *why);
                return exit_failed;
              }
            }
          }
          apply_simulator_options(options);
        }
        reporter.say("pass " + std::to_string(count) + " cases");
        return exit_ok;
      });
}

}  // namespace rl
