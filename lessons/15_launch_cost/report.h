#pragma once
// Lesson 15's addition to the common run of its plan (LessonExtras, common/host/lesson_main.h):
// after the runs, what a launch costs, four ways (on the stream or replayed from a graph, with or
// without the dependent launch), for the empty kernel and for the single pass at the run's size.
#include "common/host/lesson_main.h"

namespace rl::launches {

LessonExtras extras();

}  // namespace rl::launches
