#pragma once
// Exercise 20's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include <vector>

#include "common/host/answers.h"

namespace rl::column_tiles {

// The questions, for matrix_main: `20_column_reduce --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::column_tiles
