#pragma once
// The ladder, lessons 01-16, as one list of plans in the order the course climbs them (the
// folders' order): what `reducelab ladder` and `bench` run and the lesson test
// suites check. A program that uses it links every lesson's plans (CMake: the target
// reducelab_ladder).
#include <string_view>

#include "common/host/plan.h"

namespace rl {

// Every plan of the ladder built into this program, lesson by lesson in the course's order (01-14),
// then by variant ("" first), then backend; made once.
const Plans& ladder_plans();

// The plan of (lesson, backend, variant), or null where this build has none.
const Plan* find_plan(int lesson, Backend backend, std::string_view variant = "");

// The plans of one lesson on one backend, in ladder order.
Plans plans_of(int lesson, Backend backend);

// Lesson 07's kernel at 2, 4, ..., 2^14 inputs a thread (elements_per_thread_plans, plan.h) on every
// backend this build has, the GPU's first: not rungs of the ladder, but `reducelab sweep`'s plans.
const Plans& sweep_plans();

}  // namespace rl
