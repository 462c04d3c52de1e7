#pragma once
// `NN_slug --grade`: the student grader for one lesson executable. The kernel it was built with
// (the solution, the exercise, or a student's submission) runs every graded case in a watched child
// process; the verdict is a few lines the grading script reads:
//   result: PASSED | FAILED | SKIPPED
//   first failure: <the case and what went wrong>           (FAILED only)
//   hint: <program> --hint 1                                 (FAILED only)
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "common/host/cli.h"
#include "common/host/reducer.h"

namespace rl {

// Exit codes: 0 passed, 1 failed (wrong, hung or crashed), 77 nothing to grade on this backend.
inline constexpr int exit_skipped = 77;

int grade_lesson(std::ostream& out, const std::string& program_path, int number, const std::vector<Reducer>& mine,
                 const RunOptions& options);

class Reporter;

// The same verdict for a lesson that grades its own way (lesson 13: operators x types). `work` runs in
// a watched child (common/host/watchdog.h), with simulated memory faults reported, and says, through
// the Reporter: "backend <line>" once, "case <what>" before each case (the watchdog's progress),
// then "pass <N cases>", "fail <one line>" or "skip <why>"; it returns exit_ok, exit_failed or
// exit_skipped. `source` names the graded file. Prints the verdict lines; returns 0, 1 or 77.
int grade_in_child(std::ostream& out, const std::string& program_path, int number, const std::string& slug,
                   const std::string& source, double case_timeout_s, const std::function<int(const Reporter&)>& work);

}  // namespace rl
