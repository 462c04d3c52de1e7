#pragma once
// Exercise 16's questions, graded (EXERCISE.md, questions 1-2): each answer derived by the program
// from the course's committed H100 run, so they are checked in any build, with or without a GPU.
#include "common/host/lesson_main.h"

namespace rl::libraries {

// The questions, for lesson_main's extras: `16_versus_cub --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::libraries
