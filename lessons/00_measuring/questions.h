#pragma once
// Exercise 00's questions, graded (EXERCISE.md, questions 1-4): each answer derived by the program
// from the course's committed H100 runs (the yardsticks at every size, the DRAM chase, the roofline).
#include <vector>

#include "common/host/answers.h"

namespace rl::cost_bounds {

// The questions: `00_measuring --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::cost_bounds
