#pragma once
// `NN_slug --grade`: the student grader for one lesson executable. The kernel it was built with
// (the solution, the exercise, or a student's submission) runs every graded case in a watched child
// process; the verdict is a few lines the grading script reads:
//   result: PASSED | FAILED | SKIPPED bug class: <class> (<what it means>)
//   (FAILED only; common/host/grading.h BugClass) first failure: <the case and what went wrong>
//   (FAILED only) hint: <program> --hint K   (...)                         (FAILED only: the hint
//   that matches the class)
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/host/cli.h"
#include "common/host/device.h"
#include "common/host/lesson_main.h"
#include "common/host/plan.h"

namespace rl {

// Exit codes: 0 passed, 1 failed (wrong, hung or crashed), 77 nothing to grade on this backend.
inline constexpr int exit_skipped = 77;

// `extras.target`, where the lesson has one, is graded after the correctness cases (a miss is
// BugClass::too_slow). With options.grade_outputs_fd, every case's raw output also goes to that file
// descriptor; with options.grade_check, no kernel runs: the outputs recorded in that file are judged
// against this build's own inputs and references (common/host/grade_record.h).
int grade_lesson(std::ostream& out, const std::string& program_path, int number,
                 const std::vector<Plan>& mine, const RunOptions& options,
                 const LessonExtras& extras = {});

class Reporter;

// The same verdict for a lesson that grades its own way (lesson 17: operators x types). `work` runs
// in a watched child (common/host/watchdog.h), with simulated memory faults reported, and says,
// through the Reporter: "backend <line>" once, "case <what>" before each case (the watchdog's
// progress), then "pass <N cases>", "fail <one line>" (after "bug <tag>", or the line's words say
// the class: classify_failure_line) or "skip <why>"; it returns exit_ok, exit_failed or
// exit_skipped. `source` names the graded file. Prints the verdict lines; returns 0, 1 or 77.
// `record` (where given: the sandboxed run of grade_lesson) is told how the child ended, in
// grade_record.h's "end" line.
int grade_in_child(std::ostream& out, const std::string& program_path, int number,
                   const std::string& slug, const std::string& source, double case_timeout_s,
                   const std::function<int(const Reporter&)>& work,
                   const Reporter* record = nullptr);

// --hint N where it was given: prints hint N of lesson `number` and returns true (the program then
// stops).
bool print_hint_if_asked(const RunOptions& o, int number);

// One graded case of a lesson with its own API (lessons 18-20: an operator on a type over a shape
// or a layout, or a property of a plan). `run` reduces it and returns why it fails, in one line, or
// nullopt; it leaves the outputs' bytes in its argument. `rerun`: small enough to run again on the
// simulator with the threads of each block in other orders, where the bytes must come out the same.
struct GradedRun {
  std::string what;
  bool rerun = false;
  std::function<std::optional<std::string>(std::vector<unsigned char>& bytes)> run;
};

// The grade of such a lesson, in a watched child (grade_in_child): opens the device, asks `cases`
// for the lesson's cases on it (nullopt: this build has no version for that backend, a skip), runs
// them in order, stopping at the first failure (kernel errors the simulator throws become the
// failure line), and on the simulator runs the rerun cases again in reverse and shuffled lane
// order.
int grade_runs(std::ostream& out, const std::string& program_path, int number,
               const std::string& slug, const std::string& source, const RunOptions& options,
               const std::function<std::optional<std::vector<GradedRun>>(Device&)>& cases);

}  // namespace rl
