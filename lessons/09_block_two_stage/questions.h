#pragma once
// Exercise 09's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::block_reduce {

// The questions, for lesson_main's extras: `09_block_two_stage --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::block_reduce
