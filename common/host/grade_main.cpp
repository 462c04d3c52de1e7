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
#include "common/host/idea.h"
#include "common/host/input.h"
#include "common/host/reference.h"
#include "common/host/sim_bridge.h"
#include "common/host/table.h"
#include "common/host/watchdog.h"
#include "common/input_value.h"

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

// The verdict's lines (grade_main.h): the result, and for a failure its class, the case and the
// hint that matches the class.
void print_verdict(std::ostream& out, const std::string& program_path, int number,
                   const std::string& result, BugClass bug, const std::string& failure) {
  out << "result: " << result << '\n';
  if (result != "FAILED") return;
  const unsigned hint = hint_for(number, bug);
  out << "bug class: " << to_string(bug) << " (" << bug_meaning(bug) << ")\n";
  out << "first failure: " << failure << '\n';
  out << "hint: " << program_path << " --hint " << hint
      << "   (the one for this class of bug; all of them, "
      << "from a nudge to nearly the answer: " << hints_path(number) << ")\n";
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

// The trusted check's first lines: what it checks, against what, and on which backend.
void say_checking(std::ostream& out, int number, const std::string& slug, const RunOptions& options,
                  const std::string& banner) {
  out << "checking lesson " << (number < 10 ? "0" : "") << number << " " << slug
      << ": the submission's outputs in " << options.grade_check
      << " against this grader's own inputs (seed " << options.grade_seed << ") and references\n";
  out << banner.substr(0, banner.find('\n')) << '\n';
}

// What is wrong with a record before any case is looked at, or nothing.
std::string record_problem(const Recorded& rec, Backend backend) {
  if (!rec.malformed.empty())
    return "the outputs the submission handed back are not in the grader's format: " +
           rec.malformed;
  if (rec.backend.empty() && rec.cases.empty())
    return "the submission handed back no outputs (" +
           (rec.end.empty() ? std::string("it stopped before its first case") : ending(rec)) + ")";
  if (rec.backend != std::string(to_string(backend)))
    return "the submission ran on the " + rec.backend + " backend; this grade is on the " +
           std::string(to_string(backend));
  return "";
}

// The failure of a record that ran out (or went out of order) at `last_case`: a hang where the
// run went silent.
std::string missing_failure(const NoRecord& missing, const std::string& last_case,
                            const RunOptions& options, BugClass& bug) {
  if (missing.why != "silent") return last_case + ": " + missing.why;
  bug = BugClass::hang;
  return last_case + ": no progress for " + general(options.case_timeout_s, 3) +
         " s, so the grader stopped it: the kernel hangs (a loop whose condition never changes, or "
         "threads waiting for others that never come)";
}

// The trusted side of lesson 15's idea (Plan::replays): the handed-back replay figures, judged.
std::optional<std::string> replay_verdict(const std::vector<Plan>& mine, Backend backend,
                                          const Recorded& rec, const RunOptions& options,
                                          const DeviceShape& shape) {
  for (const Plan& p : mine) {
    if (!p.replays || p.backend != backend) continue;
    if (!rec.replay) return std::string("the replay of a second call was never measured");
    return replay_judged({rec.replay->launches, std::bit_cast<float>(rec.replay->bits)}, p,
                         options.grade_seed, shape);
  }
  return std::nullopt;
}

// The trusted side of lesson 16's idea (Plan::never_waits): the handed-back held-stream figures,
// judged.
std::optional<std::string> held_verdict(const std::vector<Plan>& mine, Backend backend,
                                        const Recorded& rec, const RunOptions& options,
                                        const DeviceShape& shape) {
  for (const Plan& p : mine) {
    if (!p.never_waits || p.backend != backend) continue;
    if (!rec.held) return std::string("a call on a held stream was never measured");
    return held_judged({rec.held->held_ms, rec.held->call_ms, std::bit_cast<float>(rec.held->bits)},
                       p, options.grade_seed, shape);
  }
  return std::nullopt;
}

// The trusted side of the queued calls (is_queued_graded): the handed-back totals, judged, a plan
// at a time in the order the submission ran them.
std::optional<Failure> queued_verdict(const std::vector<Plan>& mine, Backend backend,
                                      const Recorded& rec, const RunOptions& options,
                                      const DeviceShape& shape) {
  std::size_t k = 0;
  for (const Plan& p : mine) {
    if (!is_queued_graded(p) || p.backend != backend) continue;
    if (k >= rec.queued.size()) {
      const std::string what = "two calls queued back to back";
      if (rec.end == "silent")
        return Failure{BugClass::hang, what + ": no progress within " +
                                           general(options.case_timeout_s, 3) +
                                           " s, so the grader stopped it"};
      return Failure{BugClass::crash, what + " never finished (" + ending(rec) + ")"};
    }
    const Recorded::Queued& q = rec.queued[k++];
    if (backend == Backend::sim && q.error.empty() && q.early_barriers < 0)
      return Failure{BugClass::crash,
                     "two calls queued back to back on the simulator, handed back without what "
                     "the second call did before its wait"};
    const QueuedFigures f{std::bit_cast<float>(q.first), std::bit_cast<float>(q.second), q.error,
                          q.early_barriers, q.early_waited};
    if (auto why = queued_judged(f, p, options.grade_seed, shape)) return why;
  }
  return std::nullopt;
}

// The trusted side of a lesson's idea (Plan::idea), on the simulator: the handed-back figures of a
// trace of its kernel, judged.
std::optional<std::string> idea_verdict(const std::vector<Plan>& mine, Backend backend,
                                        const Recorded& rec) {
  for (const Plan& p : mine) {
    if (!p.idea.any() || p.backend != backend || backend != Backend::sim) continue;
    if (!rec.idea) return std::string("the trace of the lesson's idea was never recorded");
    return idea_judged(*rec.idea, p.idea);
  }
  return std::nullopt;
}

int check_recorded(std::ostream& out, const std::string& program_path, int number,
                   const std::vector<Plan>& mine, const RunOptions& options,
                   const LessonExtras& extras) {
  std::ostringstream banner;
  auto device = open_device(options, banner);
  say_checking(out, number, std::string(mine.front().slug), options, banner.str());
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
  } else if (const std::string problem = record_problem(rec, backend); !problem.empty()) {
    failure = problem;  // out of format, empty, or from another backend
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
      } else if (const auto replayed = replay_verdict(mine, backend, rec, options, shape)) {
        bug = BugClass::not_the_idea;
        failure = *replayed;
      } else if (const auto held = held_verdict(mine, backend, rec, options, shape)) {
        bug = BugClass::not_the_idea;
        failure = *held;
      } else if (const auto queued = queued_verdict(mine, backend, rec, options, shape)) {
        bug = queued->bug;
        failure = queued->why;
      } else if (const auto idea = idea_verdict(mine, backend, rec)) {
        bug = BugClass::not_the_idea;
        failure = *idea;
      } else if (extras.target && !rec.target) {
        bug = BugClass::too_slow;
        failure = "the speed target was never measured";
      } else if (const auto why = extras.target ? extras.target_judge(*rec.target, *device, options)
                                                : std::nullopt) {
        bug = BugClass::too_slow;
        failure = *why;
      } else {
        result = "PASSED", code = exit_ok;
        out << "all " << g.cases_run + (extras.target ? 1 : 0) << " cases right\n";
      }
    } catch (const NoRecord& missing) {
      failure = missing_failure(missing, last_case, options, bug);
    }
  }
  print_verdict(out, program_path, number, result, bug, failure);
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
        // Lesson 15's idea, after every total is right (Plan::replays).
        for (const Plan& p : mine) {
          if (!p.replays || p.backend != device->backend()) continue;
          progress("the idea: a second call with the same arguments replays");
          const ReplayFigures f = replay_figures(*device, p, options.grade_seed);
          if (fd >= 0) record.say(recorded_replay(f.launches, f.got));
          if (const auto why = replay_judged(f, p, options.grade_seed, device->shape())) {
            report_failure(reporter, BugClass::not_the_idea, *why);
            return exit_failed;
          }
        }
        // Lesson 16's idea: a call that never waits for the GPU (Plan::never_waits).
        for (const Plan& p : mine) {
          if (!p.never_waits || p.backend != device->backend()) continue;
          progress("the idea: a call of " + std::string(p.variant) +
                   " returns at once while its stream is held");
          const HeldFigures f = held_figures(*device, p, options.grade_seed);
          if (fd >= 0) record.say(recorded_held(f.held_ms, f.call_ms, f.got));
          if (const auto why = held_judged(f, p, options.grade_seed, device->shape())) {
            report_failure(reporter, BugClass::not_the_idea, *why);
            return exit_failed;
          }
        }
        // A call that may overlap the one before it must wait for it (is_queued_graded): two
        // calls queued back to back, each plan launched that way.
        for (const Plan& p : mine) {
          if (!is_queued_graded(p) || p.backend != device->backend()) continue;
          progress("the idea: two calls of " + std::string(p.variant.empty() ? p.slug : p.variant) +
                   " queued back to back, the second overlapping the first");
          const QueuedFigures f = queued_figures(*device, p, options.grade_seed);
          if (fd >= 0)
            record.say(
                recorded_queued(f.first, f.second, f.error, f.early_barriers, f.early_waited));
          if (const auto why = queued_judged(f, p, options.grade_seed, device->shape())) {
            report_failure(reporter, why->bug, why->why);
            return exit_failed;
          }
        }
        // The lesson's idea in a trace of its kernel, once every total is right (Plan::idea).
        for (const Plan& p : mine) {
          if (!p.idea.any() || p.backend != device->backend() || p.backend != Backend::sim)
            continue;
          progress("the idea (" + describe(p.idea) +
                   "), in a trace at n=" + std::to_string(idea_n) + " block=256");
          const IdeaFigures f = idea_figures(*device, p, options.grade_seed);
          if (fd >= 0) record.say("idea " + to_text(f));
          if (const auto why = idea_judged(f, p.idea)) {
            report_failure(reporter, BugClass::not_the_idea, *why);
            return exit_failed;
          }
          break;  // one plan of a lesson carries its idea: its own kernel's
        }
        if (extras.target) {
          const std::string figures = extras.target(*device, options, progress);
          if (fd >= 0) record.say("target " + figures);
          if (const auto why = extras.target_judge(figures, *device, options)) {
            report_failure(reporter, BugClass::too_slow, *why);
            return exit_failed;
          }
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
  print_verdict(out, program_path, number, result, bug, failure);
  return code;
}

bool print_hint_if_asked(const RunOptions& o, int number) {
  if (o.hint == 0) return false;
  print_hint(std::cout, number, o.hint);
  return true;
}

std::uint64_t graded_seed(std::uint64_t case_seed, std::uint64_t grade_seed) {
  return grade_seed == 0 ? case_seed : formula::mix64(case_seed ^ formula::mix64(grade_seed));
}

namespace {

// The passes a lesson's own cases run in: 0 lane order, then on the simulator 1 reverse and 2
// shuffled (the rerun cases only).
constexpr const char* pass_order[] = {"lane", "reverse", "shuffled"};

// Why a rerun case fails in pass `pass` (1 or 2): wrong there (`why`), or right but other bits.
std::pair<BugClass, std::string> rerun_failure(int pass, const std::optional<std::string>& why,
                                               const std::string& what) {
  const std::string order = pass_order[pass];
  const std::string line =
      why ? "right in lane order, wrong when the threads run in " + order +
                " order: a race (a read that no barrier orders after the write it needs). " + *why
          : "right, but the bits change when the threads run in " + order +
                " order: the partials must meet in a fixed order, not in the order they arrive. " +
                what;
  const BugClass bug = classify_failure_line(line);
  const bool wrong = bug == BugClass::lost_input || bug == BugClass::never_written;
  return {wrong ? BugClass::thread_order : bug, line};
}

// The trusted side of a lesson with its own cases: judges the outputs recorded in
// options.grade_check, case by case, with this build's own inputs and references.
int check_runs(std::ostream& out, const std::string& program_path, int number,
               const std::string& slug, const RunOptions& options,
               const std::function<std::optional<std::vector<GradedRun>>(Device&)>& cases) {
  std::ostringstream banner;
  auto device = open_device(options, banner);
  say_checking(out, number, slug, options, banner.str());
  const Backend backend = device->backend();
  // every case's outputs in hex: a few megabytes at most
  const Recorded rec = read_recorded(options.grade_check, std::size_t{64} << 20);
  const auto runs = cases(*device);
  std::string result = "FAILED", failure, last_case;
  BugClass bug = BugClass::crash;
  int code = exit_failed;
  if (!runs) {
    result = "SKIPPED", code = exit_skipped;
    out << "this build has no " << to_string(backend) << " version to grade\n";
  } else if (const std::string problem = record_problem(rec, backend); !problem.empty()) {
    failure = problem;  // out of format, empty, or from another backend
  } else {
    std::size_t next = 0;
    const auto take = [&](int pass, std::size_t i) -> const RecordedCase& {
      if (next >= rec.cases.size()) throw NoRecord{ending(rec)};
      const RecordedCase& got = rec.cases[next++];
      if (got.pass != pass || got.index != i || !(got.error || got.raw_given))
        throw NoRecord{"the submission handed back case " + std::to_string(got.index) +
                       " of pass " + std::to_string(got.pass) + " where case " + std::to_string(i) +
                       " of pass " + std::to_string(pass) + " belongs"};
      return got;
    };
    try {
      std::vector<std::vector<unsigned char>> first(runs->size());
      for (std::size_t i = 0; i < runs->size() && failure.empty(); ++i) {
        const GradedRun& r = (*runs)[i];
        last_case = r.what;
        const RecordedCase& got = take(0, i);
        std::optional<std::string> why =
            got.error ? std::optional<std::string>(got.message) : r.judge(got.raw);
        if (why) {
          failure = r.what + ": " + *why;
          bug = got.error ? classify_kernel_error(got.message) : classify_judged(failure);
          if (got.error && bug == BugClass::crash) bug = classify_failure_line(failure);
        }
        first[i] = got.raw;
      }
      for (int pass = 1; pass <= 2 && failure.empty() && backend == Backend::sim; ++pass)
        for (std::size_t i = 0; i < runs->size() && failure.empty(); ++i) {
          const GradedRun& r = (*runs)[i];
          if (!r.rerun) continue;
          last_case = r.what;
          const RecordedCase& got = take(pass, i);
          std::optional<std::string> why =
              got.error ? std::optional<std::string>(got.message) : r.judge(got.raw);
          if (why) why = r.what + ": " + *why;
          if (why || got.raw != first[i]) std::tie(bug, failure) = rerun_failure(pass, why, r.what);
        }
      if (failure.empty()) {
        result = "PASSED", code = exit_ok;
        out << "all " << next << " cases right\n";
      }
    } catch (const NoRecord& missing) {
      failure = missing_failure(missing, last_case, options, bug);
    }
  }
  print_verdict(out, program_path, number, result, bug, failure);
  return code;
}

}  // namespace

int grade_runs(std::ostream& out, const std::string& program_path, int number,
               const std::string& slug, const std::string& source, const RunOptions& options,
               const std::function<std::optional<std::vector<GradedRun>>(Device&)>& cases) {
  if (!options.grade_check.empty())
    return check_runs(out, program_path, number, slug, options, cases);
  // In the sandbox: every case's raw outputs go to the trusted grader too (grade_record.h).
  const int fd = options.grade_outputs_fd;
  const Reporter record(fd);
  return grade_in_child(
      out, program_path, number, slug, source, options.case_timeout_s,
      [&](const Reporter& reporter) {
        std::ostringstream banner;
        auto device = open_device(options, banner);
        reporter.say("backend " + banner.str().substr(0, banner.str().find('\n')));
        if (fd >= 0) record.say("backend " + std::string(to_string(device->backend())));
        const auto runs = cases(*device);
        if (!runs) {
          reporter.say("skip this build has no " + std::string(to_string(device->backend())) +
                       " version to grade");
          return exit_skipped;
        }
        std::size_t count = 0;
        // One case in pass `pass`: its outputs (handed back where in the sandbox), then its check.
        const auto attempt = [&](int pass, std::size_t i,
                                 std::vector<unsigned char>& bytes) -> std::optional<std::string> {
          const GradedRun& r = (*runs)[i];
          reporter.say("case " + r.what);
          ++count;
          try {
            r.produce(bytes);
          } catch (const std::exception& e) {
            // the simulator's report: which barrier, block and thread
            if (fd >= 0) record.say(recorded_error(pass, 0, i, e.what()));
            return r.what + ": " + e.what();
          }
          if (fd >= 0) record.say(recorded_bytes(pass, i, bytes));
          if (auto why = r.judge(bytes)) return r.what + ": " + *why;
          return std::nullopt;
        };
        std::vector<std::vector<unsigned char>> first(runs->size());
        for (std::size_t i = 0; i < runs->size(); ++i)
          if (auto why = attempt(0, i, first[i])) {
            const BugClass bug = classify_judged(*why);
            report_failure(reporter, bug, *why);
            return exit_failed;
          }
        if (device->backend() == Backend::sim) {
          // Right in lane order may be right by luck: the same cases with the threads of each block
          // resumed in other orders expose a race, and the bytes must not move (the lessons'
          // results are deterministic: their partials meet in a fixed order, never in the order
          // they arrive).
          for (int pass = 1; pass <= 2; ++pass) {
            RunOptions o = options;
            o.schedule = pass == 1 ? SimSchedule::reverse_lanes : SimSchedule::shuffled;
            apply_simulator_options(o);
            for (std::size_t i = 0; i < runs->size(); ++i) {
              if (!(*runs)[i].rerun) continue;
              std::vector<unsigned char> again;
              const std::optional<std::string> why = attempt(pass, i, again);
              if (why || again != first[i]) {
                apply_simulator_options(options);
                const auto [bug, line] = rerun_failure(pass, why, (*runs)[i].what);
                report_failure(reporter, bug, line);
                return exit_failed;
              }
            }
          }
          apply_simulator_options(options);
        }
        reporter.say("pass " + std::to_string(count) + " cases");
        return exit_ok;
      },
      fd >= 0 ? &record : nullptr);
}

}  // namespace rl
