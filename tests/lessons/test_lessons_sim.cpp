// Every lesson's own kernel, compiled by g++ and run on the CPU SIMT simulator, over the foundation
// sizes (up to 2^20) and seeds: the same cases the GPU suite runs on the H100.
#include "tests/lessons/ladder_checks.h"

#include "common/host/sim_bridge.h"

using namespace rl;

TEST_CASE("every lesson is registered for the simulator", "[sim][lessons]") {
  const auto lessons = test::lessons_on(Backend::sim);
  REQUIRE(lessons.size() >= 3);
  CHECK(lessons.front() == 1);
}

TEST_CASE("each lesson reduces correctly on the simulator", "[sim][lessons]") {
  auto device = make_sim_device();
  const int lesson = GENERATE(from_range(test::lessons_on(Backend::sim)));
  DYNAMIC_SECTION("lesson " << lesson) { test::check_graded_cases(*device, lesson, false); }
}

TEST_CASE("each lesson reads from any float address on the simulator", "[sim][lessons]") {
  auto device = make_sim_device();
  const int lesson = GENERATE(from_range(test::lessons_on(Backend::sim)));
  DYNAMIC_SECTION("lesson " << lesson) { test::check_misaligned_inputs(*device, lesson); }
}

TEST_CASE("every lesson's kernel is race-free under the race detector, in every thread order",
          "[sim][lessons]") {
  auto device = make_sim_device();
  const int lesson = GENERATE(from_range(test::lessons_on(Backend::sim)));
  for (const SimSchedule s :
       {SimSchedule::lane_order, SimSchedule::reverse_lanes, SimSchedule::shuffled}) {
    RunOptions o;
    o.schedule = s;
    o.sim_racecheck = true;
    apply_simulator_options(o);
    for (const Plan& r : plans_of(lesson, Backend::sim))
      for (unsigned block : {32u, 64u, 256u, 1024u})
        for (std::uint64_t n :
             {std::uint64_t{1000}, std::uint64_t{block} * 67 - 3, (std::uint64_t{1} << 16) + 1}) {
          INFO("lesson " << lesson << " " << r.variant << " block " << block << " n " << n
                         << " schedule " << static_cast<int>(s));
          CaseResult result;
          CHECK_NOTHROW(result = test::run_case(*device, r, n, block, 7, Distribution::uniform));
          CHECK(result.check.verified);
        }
  }
  apply_simulator_options(RunOptions{});
}

TEST_CASE("lesson 11's finish is bitwise reproducible on the simulator", "[sim][lessons]") {
  auto device = make_sim_device();
  RunOptions o;
  Session session(*device, o);
  session.prepare((1u << 18) + 3);
  CHECK(session.distinct_results(*find_plan(11, Backend::sim), 256, 5) == 1);
}
