#pragma once
// Exercise 07's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::grid_sizing {

// The questions, for lesson_main's extras: `07_multiple_elements_per_thread --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::grid_sizing
