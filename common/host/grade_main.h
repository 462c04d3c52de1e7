#pragma once
// `NN_slug --grade`: the student grader for one lesson executable. The kernel it was built with
// (the solution, the exercise, or a student's submission) runs every graded case in a watched child
// process; the verdict is a few lines the grading script reads:
//   result: PASSED | FAILED | SKIPPED bug class: <class> (<what it means>)
//   (FAILED only; common/host/grading.h BugClass) first failure: <the case and what went wrong>
//   (FAILED only) hint: <program> --hint K   (...)                         (FAILED only: the hint
//   that matches the class)
#include <cstdint>
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

// The same verdict for a lesson that grades its own way (lesson 18: operators x types). `work` runs
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

// One graded case of a lesson with its own API (lessons 18-22: an operator on a type over a shape
// or a layout, a property of a plan, a sum over several GPUs). `produce` runs the kernel (in the
// submission's process) and leaves its raw outputs in its argument; a kernel error throws.
// `judge` says why such outputs are wrong, in one line, or nullopt: it draws the case's input again
// and computes its own reference, so the trusted grader runs it on the outputs a sandboxed
// submission handed back (grade_record.h's "bytes" lines) without running any of its code.
// `rerun`: small enough to run again on the simulator with the threads of each block in other
// orders, where the bytes must come out the same.
struct GradedRun {
  std::string what;
  bool rerun = false;
  std::function<void(std::vector<unsigned char>& bytes)> produce;
  std::function<std::optional<std::string>(const std::vector<unsigned char>& bytes)> judge;
};

// The grade of such a lesson: opens the device, asks `cases` for the lesson's cases on it (nullopt:
// this build has no version for that backend, a skip), runs them in order in a watched child
// (grade_in_child), stopping at the first failure (kernel errors the simulator throws become the
// failure line), and on the simulator runs the rerun cases again in reverse and shuffled lane
// order. With options.grade_outputs_fd, each case's outputs also go to that descriptor; with
// options.grade_check, no kernel runs: the outputs recorded in that file are judged, and the
// reruns compared, here. `cases` must draw its inputs from options.grade_seed (graded_seed).
int grade_runs(std::ostream& out, const std::string& program_path, int number,
               const std::string& slug, const std::string& source, const RunOptions& options,
               const std::function<std::optional<std::vector<GradedRun>>(Device&)>& cases);

// A case's own seed mixed with --grade-seed (unchanged where it is 0: the fixed cases of a plain
// --grade), so that a submission graded in the sandbox cannot know its inputs in advance.
std::uint64_t graded_seed(std::uint64_t case_seed, std::uint64_t grade_seed);

}  // namespace rl
