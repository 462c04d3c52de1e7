#pragma once
// Exercise 11's questions, graded (EXERCISE.md, questions 1-4): each answer derived by the program
// from the course's H100 runs of this lesson and Little's law (littles_law.h).
#include "common/host/lesson_main.h"

namespace rl::latency {

// `extras` (report.h's: the report after the runs, the speed target) with the exercise's questions
// added, for lesson_main: `11_latency_and_roofline --check-answers FILE`.
LessonExtras with_questions(LessonExtras extras);

}  // namespace rl::latency
