#pragma once
// The whole of a lesson executable's main (lessons 01-12): main.cpp calls rl::lesson_main<NN>,
// which takes the lesson's plans from the end of its plan.cu (lesson_plans<NN, backend>, one per
// backend this build compiled) and hands them to the harness, which checks, times and traces them
// (run_lesson, common/host/harness.cpp). Declared on its own so that a five-line main.cpp does not
// compile the harness's headers (CLI11 and nlohmann::json take seconds each, for every lesson).
#include "common/host/backend_copies.h"
#include "common/host/plan.h"

namespace rl {

// Lesson `Lesson`'s plans on every backend this build has, the GPU's first.
template <int Lesson>
Plans gpu_and_sim_plans() {
  Plans plans;
  if constexpr (gpu_backend_built) plans = lesson_plans<Lesson, Backend::gpu>();
  for (const Plan& p : lesson_plans<Lesson, Backend::sim>()) plans.push_back(p);
  return plans;
}

// Checks (and unless --check-only, times) every plan of lesson `lesson`; returns the exit code.
int run_lesson(int argc, const char* const* argv, int lesson, const Plans& plans);

template <int Lesson>
int lesson_main(int argc, const char* const* argv) {
  return run_lesson(argc, argv, Lesson, gpu_and_sim_plans<Lesson>());
}

}  // namespace rl
