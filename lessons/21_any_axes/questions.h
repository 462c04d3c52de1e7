#pragma once
// Exercise 21's questions, graded (EXERCISE.md, questions 1-2): each answer derived by the program.
#include <vector>

#include "common/host/answers.h"

namespace rl::axes_by_hand {

// The questions: `21_any_axes --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::axes_by_hand
