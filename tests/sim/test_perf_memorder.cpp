// The race detector's cost on lesson 12's kernel, whose finish is the case the memory model across
// blocks was built for: at 2^20 floats, race checking on takes at most twice the time of race
// checking off (process CPU time, the fastest of several runs each, so other work on the machine
// counts as little as it can).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include "lessons/12_single_pass/single_pass.cuh"
#include "tests/sim/schedules.h"

#ifndef RL_SIM_BUILD_TYPE
#define RL_SIM_BUILD_TYPE ""
#endif

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

TEST_CASE("lesson 12 at 2^20 with race checking takes at most twice its time without", "[perf]") {
  constexpr std::uint64_t n = 1ull << 20;
  constexpr unsigned block = 1024, grid = 64;  // lesson 12's block; a persistent grid
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> in(n), partials(grid), out(1);
  double expected = 0;
  for (float& x : in) {
    x = dist(rng);
    expected += x;
  }
  double best[2] = {1e30, 1e30};  // off, on
  for (int round = 0; round < 3; ++round)
    for (int on = 0; on < 2; ++on) {
      rl::sim::Options o = simtest::make_options(rl::sim::Schedule::lane_order, 1, 1);
      o.racecheck = on == 1;
      simtest::ScopedOptions scoped(o);
      const double start = cpu_seconds();
      rl::sim::launch("single_pass", rl::single_pass<block>, dim3(grid), dim3(block), 0, in.data(),
                      out.data(), n, partials.data());
      best[on] = std::min(best[on], cpu_seconds() - start);
      CHECK(std::abs(out[0] - expected) < 1e-3 * std::sqrt(static_cast<double>(n)));
    }
  std::printf(
      "lesson 12, 2^20 floats, one host thread (%s build): race checking off %.3f s, on "
      "%.3f s of CPU time (fastest of 3): %.2fx\n",
      RL_SIM_BUILD_TYPE, best[0], best[1], best[1] / best[0]);
  const bool optimised =
      std::strcmp(RL_SIM_BUILD_TYPE, "Debug") != 0 && std::strcmp(RL_SIM_BUILD_TYPE, "") != 0;
  if (optimised)
    CHECK(best[1] <= 2.0 * best[0]);
  else
    WARN("ratio not asserted in build type '" << RL_SIM_BUILD_TYPE << "'");
}
