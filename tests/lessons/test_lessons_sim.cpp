// Every lesson's own kernel, compiled by g++ and run on the CPU SIMT simulator, over the foundation
// sizes (up to 2^20) and seeds: the same cases the GPU suite runs on the H100.
#include "tests/lessons/ladder_checks.h"

#include <bit>
#include <cstdint>
#include <string_view>

#include "common/host/sim_bridge.h"

using namespace rl;

TEST_CASE("every lesson is registered for the simulator", "[sim][lessons]") {
  const auto lessons = test::lessons_on(Backend::sim);
  REQUIRE(lessons.size() >= 3);
  CHECK(lessons.front() == 1);
}

TEST_CASE("every plan names its own lesson's kernel file, though one program links them all",
          "[sim][lessons]") {
  // This suite links every lesson's plans, as the runner and the viewer do: each plan must still
  // name the file its own objects compiled, not the one of whichever lesson the linker kept.
  for (const Plan& p : ladder_plans()) {
    const std::string folder = std::string("lessons/") + (p.lesson < 10 ? "0" : "") +
                               std::to_string(p.lesson) + "_" + std::string(p.slug) + "/";
    INFO("lesson " << p.lesson << " " << p.variant << " (" << to_string(p.backend)
                   << "): " << p.source);
    CHECK(std::string(p.source).find(folder) != std::string::npos);
  }
}

TEST_CASE("each lesson reduces correctly on the simulator", "[sim][lessons]") {
  auto device = make_sim_device();
  const int lesson = GENERATE(from_range(test::lessons_on(Backend::sim)));
  DYNAMIC_SECTION("lesson " << lesson) { test::check_graded_cases(*device, lesson, false); }
}

// Not rungs of the ladder, but measured in lesson 07's README (`reducelab sweep`): the same cases.
TEST_CASE(
    "lesson 07's kernel at a fixed number of inputs a thread reduces correctly on the simulator",
    "[sim][lessons]") {
  auto device = make_sim_device();
  REQUIRE(sweep_plans().size() >= 14);
  test::check_graded_cases(*device, sweep_plans(), false);
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

// Lesson 03's README: float addition is not associative, so the order of the additions decides the
// bits, and nothing else does. The input is the H100 bench's at 2^24 (seed 20240601, uniform), whose
// results assets/results/h100-bench.json holds: lessons 01 and 02 returned 0x45191f12, lesson 03
// 0x45191f15; the simulator, adding in the same orders, must return the same bits.
TEST_CASE("the order of the additions, not the threads, decides the bits", "[sim][lessons]") {
  auto device = make_sim_device();
  RunOptions o;
  o.seed = 20240601;
  Session session(*device, o);
  session.prepare(std::uint64_t{1} << 24);
  const auto bits = [&](int lesson, std::string_view variant, unsigned block) {
    const CaseResult r = session.run(*find_plan(lesson, Backend::sim, variant), block, false);
    INFO("lesson " << lesson << " " << variant << " block " << block << ": " << r.check.got
                   << ", reference " << r.check.reference.sum << ", bound " << r.check.tolerance);
    CHECK(r.check.verified);  // within Higham's bound of the double reference, whatever the order
    return std::bit_cast<std::uint32_t>(static_cast<float>(r.check.got));
  };
  // the same pairs in the same order, whichever threads add them: the same bits
  const std::uint32_t neighbours = bits(1, "", 256);
  CHECK(bits(1, "bitmask", 256) == neighbours);
  CHECK(bits(2, "", 256) == neighbours);
  CHECK(bits(2, "padded", 256) == neighbours);  // and wherever the slots lie in shared memory
  // lesson 03 folds halves: the same sum in exact arithmetic, other bits in float
  const std::uint32_t halves = bits(3, "", 256);
  CHECK(halves != neighbours);
  // deterministic: the same orders on another machine (the H100) gave the same bits...
  CHECK(neighbours == 0x45191f12u);
  CHECK(halves == 0x45191f15u);
  // ...and another block size is another tree
  CHECK(bits(3, "", 512) != halves);
}

TEST_CASE("lesson 12's finishes are bitwise reproducible on the simulator", "[sim][lessons]") {
  auto device = make_sim_device();
  RunOptions o;
  Session session(*device, o);
  session.prepare((1u << 18) + 3);
  CHECK(session.distinct_results(*find_plan(12, Backend::sim), 256, 5) == 1);
  CHECK(session.distinct_results(*find_plan(12, Backend::sim, "ordered_ticket"), 256, 5) == 1);
}

TEST_CASE("lessons 13 and 14: two calls queued back to back are both right on the simulator",
          "[sim][lessons]") {
  auto device = make_sim_device();
  for (bool racecheck : {false, true}) {
    RunOptions o;
    o.sim_racecheck = racecheck;  // as the grade runs them: every access checked
    apply_simulator_options(o);
    for (int lesson : {13, 14}) test::check_queued_calls(*device, lesson);
  }
  apply_simulator_options(RunOptions{});
}

// What the second of two queued calls did before its wait, as the simulator counts it: lesson 13's
// own kernel waits at its first line, its late_wait variant after its block sum's barriers.
TEST_CASE("lesson 13: the early block's barriers before its wait, own kernel and late_wait",
          "[sim][lessons]") {
  auto device = make_sim_device();
  const QueuedFigures own = queued_figures(*device, *find_plan(13, Backend::sim), 0);
  CHECK(own.error == "");
  CHECK(own.early_waited);
  CHECK(own.early_barriers == 0);
  const QueuedFigures late = queued_figures(*device, *find_plan(13, Backend::sim, "late_wait"), 0);
  CHECK(late.error == "");
  CHECK(late.early_waited);
  CHECK(late.early_barriers > 0);
}
