#pragma once
// Exercise 01's question 1, graded: each answer derived from the course's committed trace.
#include "common/host/lesson_main.h"

namespace rl::idle_lanes {

// The questions, for lesson_main's extras: `01_interleaved_divergent --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::idle_lanes
