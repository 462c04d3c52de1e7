#pragma once
// Exercise 10's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::second_step {

// The questions, for lesson_main's extras: `10_multi_block_two_kernel --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::second_step
