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

// The rungs in the order the course climbs them, which is the order of their folders: the tree
// (01-06), more work a thread (07), the warp and the block (08-10), bytes in flight (11), one pass
// (12), Hopper's dependent launch (13) and its other means, measured (14), the launch recorded into
// a graph (15), and the libraries (16) close the ladder.
const Plans& ladder_plans() {
  static const Plans all = in_order<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>();
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
