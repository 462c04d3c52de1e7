#pragma once
// Exercise 12's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::ticket {

// The questions, for lesson_main's extras: `12_single_pass --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::ticket
