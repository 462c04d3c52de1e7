// Lesson 17's executable: ten classic mistakes (broken.cuh) and their fixes (common_bugs.cuh, the
// file a student build grades), each run in a child process with a timeout, so that a kernel that
// hangs a GPU cannot take the program with it. One line per kernel says what happened.
//   --list                   the bugs, what each does wrong, the grader's class
//   --bug NAME [--bug N2]    run one (or more) on the graded cases, as the grader does
//   --all                    run all ten (also the default)
//   --fixed                  this build's kernels instead: the fixes, or yours
//   --n N [--block B ...]    one case instead of the graded ones; --repeat R runs it R times
//   --grade / --hint K       grade this build's ten kernels / print a hint
//   --check-answers FILE     check the exercise's predictions (questions.cpp)
// Read in this order: broken.cuh (the bugs), common_bugs.cuh (the fixes), plan.cu, questions.cpp
// (the exercise's questions, each answer derived), this file.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/host/fault_report.h"
#include "common/host/grade_main.h"
#include "common/host/grading.h"
#include "common/host/harness.h"
#include "common/host/hints.h"
#include "common/host/launch_observer.h"
#include "common/host/table.h"
#include "common/host/watchdog.h"
#include "lessons/17_common_bugs/bugs.h"
#include "lessons/17_common_bugs/questions.h"

using namespace rl;

namespace {

constexpr const char* program = "17_common_bugs";
constexpr const char* title =
    "Common bugs: ten classic mistakes, what a GPU, the simulator and the grader make of them";

struct Options {
  RunOptions run;
  std::vector<std::string> bugs;  // --bug, in order; empty: every bug
  bool fixed = false;
  bool list = false;
  unsigned repeat = 1;
};

// Backend b's plans of the kernels asked for: the bugs, or with --fixed this build's graded
// kernels.
Plans plans_on(Backend b, bool fixed) {
  if (b == Backend::sim)
    return fixed ? lesson_plans<17, Backend::sim>() : bugs::broken_plans<Backend::sim>();
  if constexpr (gpu_backend_built)
    return fixed ? lesson_plans<17, Backend::gpu>() : bugs::broken_plans<Backend::gpu>();
  return {};
}

const Plan* plan_named(const Plans& plans, std::string_view name) {
  for (const Plan& p : plans)
    if (p.variant == name) return &p;
  return nullptr;
}

// In the child: the graded cases, as `--grade` runs them (the simulator's thread orders included),
// until the first failure; on a pass, the largest graded case once more, for its total.
void graded(const Reporter& reporter, Device& device, const Plan& plan, const RunOptions& o) {
  const Grade g =
      grade_plans(device, {plan}, o, [&](const std::string& c) { reporter.say("case " + c); });
  if (!g.passed) {
    reporter.say("bug " + std::string(bug_tag(g.bug)));
    reporter.say("fail " + g.failure);
    return;
  }
  const GradeCase largest{graded_sizes(device.backend() == Backend::gpu).back(), 256,
                          grade_seeds[0], Distribution::uniform, false};
  const CaseResult r = run_graded_case(device, plan, largest);
  reporter.say("pass right in all " + std::to_string(g.cases_run) + " graded cases (the largest, " +
               describe(largest) + ": " + general(r.check.got, 9) + " against " +
               general(r.check.reference.sum, 9) + ")");
}

// In the child: one case, `repeat` times on the same input, counting the runs that fail it and the
// blocks launched (each a block's reduction of its share).
void one_case(const Reporter& reporter, Device& device, const Plan& plan, const RunOptions& o,
              unsigned repeat) {
  const GradeCase c{o.n, o.block, o.seed, o.distribution, false};
  Session session(device, o);
  session.prepare(c.n);
  std::uint64_t blocks = 0;
  set_launch_observer([&](const LaunchShape& s) { blocks += s.grid; });
  unsigned wrong = 0;
  std::optional<Failure> first;
  CaseResult last;
  for (unsigned k = 0; k < repeat; ++k) {
    reporter.say("case " + describe(c) + ", run " + std::to_string(k + 1) + " of " +
                 std::to_string(repeat));
    try {
      last = session.run(plan, c.block, false);
    } catch (const std::exception& e) {  // the simulator's report: a race, a barrier, an index
      set_launch_observer({});
      reporter.say("bug " + std::string(bug_tag(classify_kernel_error(e.what()))));
      reporter.say("fail " + describe(c) + ": " + e.what());
      return;
    }
    if (auto f = diagnose(last, c)) {
      ++wrong;
      if (!first) first = f;
    }
  }
  set_launch_observer({});
  if (repeat == 1) {
    if (first) {
      reporter.say("bug " + std::string(bug_tag(first->bug)));
      reporter.say("fail " + describe(c) + ": " + first->why);
    } else {
      reporter.say("pass " + describe(c) + ": " + general(last.check.got, 9) + " against " +
                   general(last.check.reference.sum, 9) +
                   (last.check.reference.exact ? ", exact" : ", within rounding"));
    }
    return;
  }
  // A count, not a grade: "tally" and whether every run was right.
  const std::string counted = describe(c) + ", " + std::to_string(repeat) + " runs (" +
                              std::to_string(blocks) +
                              " block reductions): " + std::to_string(wrong) + " wrong";
  if (first)
    reporter.say("tally 1 " + counted + "; the first: " + first->why);
  else
    reporter.say(
        "tally 0 " + counted +
        (last.check.reference.exact ? ", every total exact" : ", every total within rounding"));
}

// One kernel in a watched child; returns its line, and whether it passed.
struct Line {
  std::string text;
  bool passed = false;
};

Line run_one(const std::string& name, const Options& o, std::string& backend_line) {
  const WatchedRun run = run_watched(
      [&](const Reporter& reporter) {
        report_kernel_faults(reporter.fd(), "fault ",
                             4);  // a simulated memory fault becomes a line
        std::ostringstream banner;
        std::unique_ptr<Device> device;
        try {
          device = open_device(o.run, banner);
        } catch (const UsageError&
                     e) {  // --backend gpu without one: the parent says so, as a usage error
          reporter.say(std::string("usage ") + e.what());
          return exit_usage;
        }
        reporter.say("backend " + banner.str().substr(0, banner.str().find('\n')));
        const Plans plans = plans_on(device->backend(), o.fixed);
        const Plan* plan = plan_named(plans, name);
        if (!plan) {
          reporter.say("skip this build has no " + std::string(to_string(device->backend())) +
                       " version");
          return exit_skipped;
        }
        if (o.run.n_given)
          one_case(reporter, *device, *plan, o.run, o.repeat);
        else
          graded(reporter, *device, *plan, o.run);
        return exit_ok;
      },
      o.run.case_timeout_s);

  std::string last_case = "before the first case", bug, verdict, detail;
  for (const std::string& l : run.lines) {
    const auto space = l.find(' ');
    const std::string word = l.substr(0, space),
                      rest = space == std::string::npos ? "" : l.substr(space + 1);
    if (word == "backend")
      backend_line = rest;
    else if (word == "case")
      last_case = rest;
    else if (word == "bug")
      bug = rest;
    else
      verdict = word, detail = rest;
  }
  const auto classed = [](BugClass b, const std::string& what) {
    return "[" + std::string(to_string(b)) + "] " + what;
  };
  if (last_case.starts_with("variant " + name + " ")) last_case.erase(0, name.size() + 9);
  if (run.end == WatchedRun::End::silent)
    return {classed(
        BugClass::hang,
        "no progress in " + general(o.run.case_timeout_s, 3) + " s at " + last_case +
            ": stopped (a loop that never ends, or threads waiting for others that never come)")};
  if (verdict == "usage") throw UsageError(detail);
  if (verdict == "pass") return {"passes: " + detail, true};
  if (verdict == "tally") return {detail.substr(2), detail.starts_with("0 ")};
  if (verdict == "skip") return {"skipped: " + detail, true};
  if (detail.starts_with("variant " + name + " "))
    detail.erase(0, name.size() + 9);  // the line names it already
  if (verdict == "fail")
    return {classed(parse_bug_tag(bug).value_or(classify_failure_line(detail)), detail)};
  if (verdict == "fault")
    return {classed(classify_kernel_error(detail), last_case + ": " + detail)};
  if (verdict == "error")
    return {classed(classify_kernel_error(detail), last_case + ": " + detail)};
  return {classed(BugClass::crash, last_case + ": the program " +
                                       (run.end == WatchedRun::End::signalled
                                            ? "was killed by signal " + std::to_string(run.code) +
                                                  " (" + strsignal(run.code) + ")"
                                            : "exited with code " + std::to_string(run.code)) +
                                       " without a verdict")};
}

void list_bugs() {
  std::cout << "lesson 17: " << bugs::count
            << " classic mistakes (lessons/17_common_bugs/README.md); `--bug NAME` runs one\n";
  Table table({"bug", "breaks", "the mistake", "the fix", "grader (sim)"});
  for (const bugs::Bug& b : bugs::catalogue)
    table.add({std::string(b.name),
               std::string(b.lesson < 10 ? "lesson 0" : "lesson ") + std::to_string(b.lesson),
               std::string(b.mistake), std::string(b.fix),
               "[" + std::string(to_string(parse_bug_tag(b.tag).value_or(BugClass::crash))) + "]"});
  table.print(std::cout);
}

int run(int argc, const char* const* argv) {
  CLI::App app(title, program);
  RunOptionSet set;
  set.which |= opt_answers;
  RunOptionParser parser(app, set);
  Options o;
  app.add_option(
      "--bug", o.bugs, "run this bug (repeatable): " + [] {
        std::string names;
        for (const bugs::Bug& b : bugs::catalogue)
          names += (names.empty() ? "" : ", ") + std::string(b.name);
        return names;
      }());
  bool all = false;
  app.add_flag("--all", all, "run every bug, one line each (what no --bug does too)");
  app.add_flag("--list", o.list,
               "list the bugs: the lesson each breaks, the mistake, the fix, the grader's class");
  app.add_flag(
      "--fixed", o.fixed,
      "run this build's kernels (the fixes, or in a student build yours) instead of the bugs");
  auto* repeat = app.add_option(
      "--repeat", o.repeat, "with --n: run the case this many times and count the wrong totals");
  if (!parse_command_line(app, argc, argv)) return exit_ok;
  o.run = parser.resolve();
  if (o.run.hint) {
    print_hint(std::cout, 17, o.run.hint);
    return exit_ok;
  }
  if (!o.run.check_answers.empty())
    return check_answers(std::cout, o.run.check_answers, bug_reports::questions());
  if (!o.run.trace_path.empty() || !o.run.json_path.empty() || o.run.reps_given)
    throw UsageError(
        "lesson 17 checks kernels, it does not time or trace them: --trace, --json and --reps do "
        "not apply");
  if (repeat->count() > 0 && (o.repeat < 1 || !o.run.n_given))
    throw UsageError("--repeat needs --n (one case) and at least 1 run");
  if (all && !o.bugs.empty())
    throw UsageError("--all and --bug: name bugs, or ask for all of them");
  for (const std::string& name : o.bugs)
    if (!bugs::find(name))
      throw UsageError("--bug: no bug named '" + name + "' (--list names them)");
  if (o.list) {
    list_bugs();
    return exit_ok;
  }
  if (o.run.grade) {
    Plans mine;
    if constexpr (gpu_backend_built) mine = lesson_plans<17, Backend::gpu>();
    for (const Plan& p : lesson_plans<17, Backend::sim>()) mine.push_back(p);
    return grade_lesson(std::cout, argv[0], 17, mine, o.run);
  }
  // A bug run checks for races unless told not to: the simulator's report is what it is for.
  o.run.sim_racecheck = o.run.sim_racecheck.value_or(true);
  if (o.bugs.empty())
    for (const bugs::Bug& b : bugs::catalogue) o.bugs.emplace_back(b.name);

  std::cout << "lesson 17: "
            << (o.fixed ? "this build's kernels (" +
                              std::string(lesson_plans<17, Backend::sim>().front().source) + ")"
                        : std::string("the bugs (lessons/17_common_bugs/broken.cuh)"))
            << ", " << (o.run.n_given ? "one case" : "the graded cases until the first failure")
            << ", each in a child process (" << general(o.run.case_timeout_s, 3)
            << " s without progress: stopped)\n"
            << std::flush;
  std::string backend_line;
  bool printed_backend = false, all_passed = true;
  for (const std::string& name : o.bugs) {
    const Line line = run_one(name, o, backend_line);
    if (!printed_backend && !backend_line.empty()) {
      std::cout << backend_line << '\n';
      printed_backend = true;
    }
    std::cout << name << (o.fixed ? " (fixed): " : ": ") << line.text << '\n' << std::flush;
    all_passed = all_passed && line.passed;
  }
  // The bugs are meant to fail; what can fail is a fix (or a student's kernel).
  return o.fixed && !all_passed ? exit_failed : exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  return guarded([&] { return run(argc, argv); });
}
