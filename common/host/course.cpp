#include "common/host/course.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "common/host/lesson_main.h"

namespace rl {
namespace {

// The lessons in the order given, each lesson's plans by variant ("" first), then backend.
template <int... Lesson>
Plans all_of(std::integer_sequence<int, Lesson...>) {
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

// Story order: lesson 20 (Hopper's features on lesson 11's single pass) follows lesson 11, and the
// libraries (12) close the ladder.
const Plans& ladder_plans() {
  static const Plans all =
      all_of(std::integer_sequence<int, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 20, 12>{});
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

}  // namespace rl
