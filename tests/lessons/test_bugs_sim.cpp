// Lesson 17 on the simulator, in process: each broken kernel of broken.cuh gets the bug class its
// catalogue entry names from the grader (the race detector on, as --grade runs it), and each fix in
// common_bugs.cuh passes every graded case, race-free in every thread order. (The hang needs the
// watchdog's child process: the CTest tests "17 --bug NAME ..." run the executable for every bug.)
#include <catch2/catch.hpp>

#include <string>

#include "common/host/grading.h"
#include "common/host/sim_bridge.h"
#include "lessons/17_common_bugs/bugs.h"

using namespace rl;

namespace {

// Grades one plan as `17_common_bugs --grade` does on the simulator, then puts the options back.
// `late`: race checking off, late visibility on (--no-sim-racecheck --sim-late-visibility).
Grade grade(const Plan& p, bool late = false) {
  RunOptions o;
  o.grade = true;
  o.backend = Backend::sim;
  if (late) {
    o.sim_racecheck = false;
    o.sim_late_visibility = true;
  }
  apply_simulator_options(o);
  auto device = make_sim_device();
  const Grade g = grade_plans(*device, {p}, o, [](const std::string&) {});
  apply_simulator_options(RunOptions{});
  return g;
}

}  // namespace

TEST_CASE("lesson 17: the plans are the catalogue's bugs, in its order", "[sim][bugs]") {
  const Plans broken = bugs::broken_plans<Backend::sim>();
  const Plans fixed = lesson_plans<17, Backend::sim>();
  REQUIRE(broken.size() == bugs::count);
  REQUIRE(fixed.size() == bugs::count);
  for (unsigned k = 0; k < bugs::count; ++k) {
    CHECK(broken[k].variant == bugs::catalogue[k].name);
    CHECK(fixed[k].variant == bugs::catalogue[k].name);
    CHECK(broken[k].source == "lessons/17_common_bugs/broken.cuh");
    CHECK(broken[k].lesson == 17);  // its folder's number: traces and records are labelled by it
    CHECK(fixed[k].lesson == 17);
    CHECK(parse_bug_tag(bugs::catalogue[k].tag));
  }
}

TEST_CASE("lesson 17: each bug gets its class from the grader on the simulator",
          "[sim][grading][bugs]") {
  const Plans broken = bugs::broken_plans<Backend::sim>();
  for (unsigned k = 0; k < bugs::count; ++k) {
    const bugs::Bug& b = bugs::catalogue[k];
    if (b.tag == "hang") continue;  // the executable's test: a hang needs the watchdog's child
    const Grade g = grade(broken[k]);
    INFO(b.name << ": [" << to_string(g.bug) << "] " << g.failure);
    CHECK_FALSE(g.passed);
    CHECK(bug_tag(g.bug) == b.tag);
    // The report names the catalogue's file, where the kernel is, unless the failure is a total.
    if (b.tag == "race" || b.tag == "barrier")
      CHECK_THAT(g.failure, Catch::Contains("broken.cuh:"));
  }
}

TEST_CASE("lesson 17: every fix passes the graded cases, race-free in every thread order",
          "[sim][grading][bugs]") {
  for (const Plan& p : lesson_plans<17, Backend::sim>()) {
    const Grade g = grade(p);
    INFO(p.variant << ": " << g.failure);
    CHECK(g.passed);
  }
}

TEST_CASE(
    "lesson 17: the missing fence is a race across blocks, both fences named; late "
    "visibility makes its total wrong",
    "[sim][grading][bugs]") {
  const bugs::Bug* b = bugs::find("missing_fence");
  REQUIRE(b != nullptr);
  const auto k = static_cast<unsigned>(b - bugs::catalogue);
  const Plan broken = bugs::broken_plans<Backend::sim>()[k];
  const Plan fixed = lesson_plans<17, Backend::sim>()[k];
  const Grade g = grade(broken);
  INFO(g.failure);
  CHECK(g.bug == BugClass::race);
  // The last block (which one depends on the host threads) reads partials[0], written by block 0.
  CHECK_THAT(g.failure,
             Catch::Contains("racecheck: read-after-write race on partials[0] across blocks: "
                             "block (0,0,0) thread 0 wrote it at broken.cuh:") &&
                 Catch::Contains("thread 0 read it at broken.cuh:") &&
                 Catch::Contains("with the release missing (no __threadfence() in block (0,0,0) "
                                 "after the write and before the atomic that signals it) and the "
                                 "acquire missing (no __threadfence() in block (") &&
                 Catch::Contains(") after its atomicInc at broken.cuh:"));
  // Without the detector, late visibility: the last block reads the other blocks' partials as the
  // poison the harness filled scratch with, so the total is NaN; the fix is right.
  const Grade late = grade(broken, true);
  INFO(late.failure);
  CHECK_FALSE(late.passed);
  CHECK_THAT(late.failure, Catch::Contains("n=65537"));
  CHECK(grade(fixed, true).passed);
  CHECK(grade(fixed).passed);
}
