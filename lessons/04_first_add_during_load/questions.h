#pragma once
// Exercise 04's questions, graded (EXERCISE.md, questions 1-2): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::block_coverage {

// The questions, for lesson_main's extras: `04_first_add_during_load --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::block_coverage
