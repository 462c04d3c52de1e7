#pragma once
// Exercise 22's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program
// from the course's committed multi-GPU runs, so checking them needs no GPU and no NCCL.
#include <vector>

#include "common/host/answers.h"

namespace rl::collective_cost {

// The questions: `22_multi_gpu_nccl --check-answers FILE`.
std::vector<Question> questions();

}  // namespace rl::collective_cost
