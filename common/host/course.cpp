#include "common/host/course.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "common/host/lesson_main.h"

namespace rl {
namespace {

template <int... Lesson>
Plans all_of(std::integer_sequence<int, Lesson...>) {
  Plans all;
  for (const Plans& some : {gpu_and_sim_plans<Lesson + 1>()...})
    all.insert(all.end(), some.begin(), some.end());
  std::stable_sort(all.begin(), all.end(), [](const Plan& a, const Plan& b) {
    return std::tuple(a.lesson, a.variant, a.backend) < std::tuple(b.lesson, b.variant, b.backend);
  });
  return all;
}

}  // namespace

const Plans& ladder_plans() {
  static const Plans all = all_of(std::make_integer_sequence<int, 12>{});
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
