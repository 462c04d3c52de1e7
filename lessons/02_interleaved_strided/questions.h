#pragma once
// Exercise 02's question 1, graded: each answer derived from the course's committed trace.
#include "common/host/lesson_main.h"

namespace rl::bank_conflicts {

// The questions, for lesson_main's extras: `02_interleaved_strided --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::bank_conflicts
