#pragma once
// Exercise 06's questions, graded (EXERCISE.md, questions 1-3): each answer derived from the
// course's committed traces and its committed H100 run.
#include "common/host/lesson_main.h"

namespace rl::compile_time_levels {

// The questions, for lesson_main's extras: `06_complete_unroll --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::compile_time_levels
