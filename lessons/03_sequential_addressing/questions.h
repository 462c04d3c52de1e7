#pragma once
// Exercise 03's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::block_sizes {

// The questions, for lesson_main's extras: `03_sequential_addressing --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::block_sizes
