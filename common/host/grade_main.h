#pragma once
// `NN_slug --grade`: the student grader for one lesson executable. The kernel it was built with
// (the solution, the exercise, or a student's submission) runs every graded case in a watched child
// process; the verdict is a few lines the grading script reads:
//   result: PASSED | FAILED | SKIPPED
//   first failure: <the case and what went wrong>           (FAILED only)
//   hint: <program> --hint 1                                 (FAILED only)
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

}  // namespace rl
