#pragma once
// Exercise 18's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program
// from the course's operators (common/device/reduce_ops.cuh) and its committed GPU runs.
#include <vector>

#include "common/host/answers.h"

namespace rl::widened {

// The questions: `18_operators_and_types --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::widened
