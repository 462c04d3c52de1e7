#pragma once
// The whole of a lesson executable's main (lessons 01-16): main.cpp calls
// rl::lesson_main<NN>, which takes the lesson's plans from the end of its plan.cu (lesson_plans<NN,
// backend>, one per backend this build compiled) and hands them to the harness, which checks, times
// and traces them (run_lesson, common/host/harness.cpp). Declared on its own so that a five-line
// main.cpp does not compile the harness's headers (CLI11 and nlohmann::json take seconds each, for
// every lesson).
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/host/answers.h"
#include "common/host/backend_copies.h"
#include "common/host/plan.h"

namespace rl {

class Device;
class Session;
struct Baseline;
struct CaseResult;
struct RunOptions;

// What a lesson adds to the common run of its plans (lesson 11: the pointer chase, Little's law and
// the roofline after its runs, and a speed target its grade checks too; lesson 03: the questions
// of its exercise). Empty for the others.
struct LessonExtras {
  // After the lesson's own runs, on the same session (the same input; `baseline` null where
  // --check-only): prints its report to `out` and fills `record`, which the --json record keeps
  // under `key`.
  std::string key;
  std::function<void(Session& session, const std::vector<CaseResult>& runs,
                     const Baseline* baseline, std::ostream& out, nlohmann::json& record)>
      report;
  // --grade, once every correctness case has passed: the lesson's speed target in two halves.
  // `target` measures, in the submission's process, the figures the target is judged from, as one
  // line of words (`progress` is told each step before it runs: the grader's watchdog takes it as
  // a sign of life); in the sandbox they are handed back as they are (grade_record.h's "target"
  // line). `target_judge`, in the trusted grader too, says why those figures miss the target, in
  // one line, or nullopt; it may run nothing but host code.
  std::function<std::string(Device& device, const RunOptions& options,
                            const std::function<void(const std::string&)>& progress)>
      target;
  std::function<std::optional<std::string>(const std::string& figures, Device& device,
                                           const RunOptions& options)>
      target_judge;
  // The exercise's graded questions (common/host/answers.h): `--check-answers FILE` checks them.
  std::vector<Question> questions;
};

// Lesson `Lesson`'s plans on every backend this build has, the GPU's first.
template <int Lesson>
Plans gpu_and_sim_plans() {
  Plans plans;
  if constexpr (gpu_backend_built) plans = lesson_plans<Lesson, Backend::gpu>();
  for (const Plan& p : lesson_plans<Lesson, Backend::sim>()) plans.push_back(p);
  return plans;
}

// Checks (and unless --check-only, times) every plan of lesson `lesson`, then runs what `extras`
// adds; returns the exit code.
int run_lesson(int argc, const char* const* argv, int lesson, const Plans& plans,
               const LessonExtras& extras = {});

template <int Lesson>
int lesson_main(int argc, const char* const* argv, const LessonExtras& extras = {}) {
  return run_lesson(argc, argv, Lesson, gpu_and_sim_plans<Lesson>(), extras);
}

}  // namespace rl
