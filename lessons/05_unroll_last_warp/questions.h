#pragma once
// Exercise 05's questions, graded (EXERCISE.md, questions 1-3): each answer derived from the
// course's committed traces.
#include "common/host/lesson_main.h"

namespace rl::warp_waits {

// The questions, for lesson_main's extras: `05_unroll_last_warp --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::warp_waits
