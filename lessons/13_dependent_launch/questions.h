#pragma once
// Exercise 13's questions, graded (EXERCISE.md, questions 1-2): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::overlap {

// The questions, for lesson_main's extras: `13_dependent_launch --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::overlap
