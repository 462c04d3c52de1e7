// Every lesson's own kernel, compiled by g++ and run on the CPU SIMT simulator, over the foundation
// sizes (up to 2^20) and seeds: the same cases the GPU suite runs on the H100.
#include "tests/lessons/ladder_checks.h"

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

TEST_CASE("lesson 11's finish is bitwise reproducible on the simulator", "[sim][lessons]") {
  auto device = make_sim_device();
  RunOptions o;
  Session session(*device, o);
  session.prepare((1u << 18) + 3);
  CHECK(session.distinct_results(*find_plan(11, Backend::sim), 256, 5) == 1);
}
