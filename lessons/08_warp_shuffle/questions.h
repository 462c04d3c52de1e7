#pragma once
// Exercise 08's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::shuffle_lanes {

// The questions, for lesson_main's extras: `08_warp_shuffle --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::shuffle_lanes
