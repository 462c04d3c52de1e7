#pragma once
// Exercise 14's questions, graded (EXERCISE.md, questions 1-3): each answer derived by the program.
#include "common/host/lesson_main.h"

namespace rl::clusters {

// The questions, for lesson_main's extras: `14_clusters_and_bulk_copies --check-answers FILE`.
LessonExtras extras();

}  // namespace rl::clusters
