#pragma once
// Exercise 19's questions, graded (EXERCISE.md, questions 1-4): each answer derived by the program.
#include <vector>

#include "common/host/answers.h"

namespace rl::threads_a_row {

// The questions, for matrix_main: `19_row_reduce --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::threads_a_row
