#pragma once
// Exercise 15's questions, graded (EXERCISE.md, questions 1-2): each answer derived by the program.
#include <vector>

#include "common/host/answers.h"

namespace rl::launch_floor {

// The questions, for the lesson's extras beside its report (report.h):
// `15_launch_cost --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::launch_floor
