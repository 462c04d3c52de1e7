#include "common/host/course.h"

#include <algorithm>
#include <tuple>

#include "common/host/lesson_main.h"

namespace rl {
namespace {

// The plans of the lessons named, lesson after lesson in the order given; within a lesson by
// variant ("" first), then backend.
template <int... Lesson>
Plans in_order() {
  Plans all;
  for (Plans some : {gpu_and_sim_plans<Lesson>()...}) {
    std::stable_sort(some.begin(), some.end(), [](const Plan& a, const Plan& b) {
      return std::tuple(a.variant, a.backend) < std::tuple(b.variant, b.backend);
    });
    all.insert(all.end(), some.begin(), some.end());
  }
  return all;
}

}  // namespace

// The rungs in the order the course climbs them. Lesson 19 (latency and the roofline) stands
// between lessons 10 and 11: it explains why 07-10 stall short of the streaming ceiling and what
// 11's loads change. Lesson 20 (Hopper's features on lesson 11's single pass) follows 11, and the
// libraries (12) close the ladder.
const Plans& ladder_plans() {
  static const Plans all = in_order<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 19, 11, 20, 12>();
  return all;
}

const Plan* find_plan(int lesson, Backend backend, std::string_view variant) {
  for (const Plan& p : ladder_plans())
    if (p.lesson == lesson && p.backend == backend && p.variant == variant) return &p;
  return nullptr;
}

Plans plans_of(int lesson, Backend backend) {
  Plans out;
  for (const Plan& p : ladder_plans())
    if (p.lesson == lesson && p.backend == backend) out.push_back(p);
  return out;
}

const Plans& sweep_plans() {
  static const Plans all = [] {
    Plans plans;
    if constexpr (gpu_backend_built) plans = elements_per_thread_plans<Backend::gpu>();
    for (const Plan& p : elements_per_thread_plans<Backend::sim>()) plans.push_back(p);
    return plans;
  }();
  return all;
}

}  // namespace rl
