#pragma once
// Exercise 17's questions, graded (EXERCISE.md, questions 1-2): each answer derived by the program
// from the course's own bugs (broken.cuh), never from the kernels this build grades.
#include <vector>

#include "common/host/answers.h"

namespace rl::bug_reports {

// The questions: `17_common_bugs --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::bug_reports
