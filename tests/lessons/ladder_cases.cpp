#include "tests/lessons/ladder_cases.h"

#include <set>

namespace rl::test {

std::vector<int> lessons_on(Backend b) {
  std::set<int> numbers;
  for (const auto& r : ladder_plans())
    if (r.backend == b) numbers.insert(r.lesson);
  return {numbers.begin(), numbers.end()};
}

CaseResult run_case(Device& device, const Plan& r, std::uint64_t n, unsigned block,
                    std::uint64_t seed, Distribution d) {
  RunOptions o;
  o.seed = seed;
  o.distribution = d;
  Session session(device, o);
  session.prepare(n);
  return session.run(r, block, false);
}

}  // namespace rl::test
