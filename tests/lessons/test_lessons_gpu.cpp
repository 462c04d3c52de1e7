// Every lesson's kernel on the GPU over the foundation sizes including 2^24+3, and the agreement of
// the simulator with the GPU on the same input.
#include "tests/lessons/ladder_checks.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "lessons/11_latency_and_roofline/report.h"
#include "tests/lessons/dropped_block.h"

using namespace rl;
using test::gpu;

TEST_CASE("each lesson reduces correctly on the GPU", "[gpu][lessons]") {
  const int lesson = GENERATE(from_range(test::lessons_on(Backend::gpu)));
  DYNAMIC_SECTION("lesson " << lesson) { test::check_graded_cases(gpu(), lesson, true); }
}

TEST_CASE("lesson 07's kernel at a fixed number of inputs a thread reduces correctly on the GPU",
          "[gpu][lessons]") {
  test::check_graded_cases(gpu(), sweep_plans(), true);
}

TEST_CASE("the simulator and the GPU agree on every lesson", "[gpu][sim][lessons]") {
  auto sim = make_sim_device();
  const std::uint64_t n = (1u << 20) + 7;
  for (int lesson : test::lessons_on(Backend::gpu)) {
    for (const Plan& g : plans_of(lesson, Backend::gpu)) {
      const Plan* s = find_plan(lesson, Backend::sim, g.variant);
      if (!s) continue;  // lesson 16 is NVIDIA's libraries: nothing to simulate
      const CaseResult on_gpu = test::run_case(gpu(), g, n, 256, 99, Distribution::uniform);
      const CaseResult on_sim = test::run_case(*sim, *s, n, 256, 99, Distribution::uniform);
      INFO("lesson " << lesson << " " << g.variant << " gpu=" << on_gpu.check.got
                     << " sim=" << on_sim.check.got << " reference=" << on_gpu.check.reference.sum
                     << " tolerance=" << on_gpu.check.tolerance);
      CHECK(on_gpu.check.verified);
      CHECK(on_sim.check.verified);
      CHECK(std::abs(on_gpu.check.got - on_sim.check.got) <= on_gpu.check.tolerance);
    }
  }
}

TEST_CASE("measuring the ceiling and CUB leaves the input intact", "[gpu][baseline]") {
  // The ladder measures the baselines first and the lessons after, on the same buffers.
  for (std::uint64_t n : {std::uint64_t{1} << 22, (std::uint64_t{1} << 26) + 5}) {
    RunOptions o;
    o.reps = 3;
    Session session(gpu(), o);
    session.prepare(n);
    const Baseline& b = session.baseline();
    REQUIRE(b.ceiling);
    REQUIRE(b.cub_check);
    CHECK(b.cub_check->verified);
    CHECK(b.ceiling->read_gbps > 0);
    CHECK(b.ceiling->copy_gbps > 0);
    const CaseResult after = session.run(*find_plan(3, Backend::gpu), 256, false);
    INFO("n=" << n << " got=" << after.check.got << " reference=" << after.check.reference.sum);
    CHECK(after.check.verified);
  }
}

TEST_CASE(
    "every timed run carries its device time, and a plainly launched one is no longer than it",
    "[gpu][lessons][baseline]") {
  for (const std::uint64_t n : {std::uint64_t{1} << 20, std::uint64_t{1} << 24}) {
    RunOptions o;
    o.reps = 5;
    Session session(gpu(), o);
    session.prepare(n);
    const Baseline& b = session.baseline(ladder_plans());
    REQUIRE(b.ceiling);
    REQUIRE(b.ceiling->device_ms);
    REQUIRE(b.cub_device_ms);
    for (const Plan& p : ladder_plans()) {
      if (p.backend != Backend::gpu) continue;
      const CaseResult r = session.run(p, block_for(p, 256, false), true);
      INFO("lesson " << p.lesson << " " << p.variant << " n " << n << ", launched "
                     << to_string(p.way));
      REQUIRE(r.timing);
      REQUIRE(r.device_ms);
      CHECK(r.device_ms->median > 0);
      // The GPU cannot be busy longer than the calls took, whatever the way (the two are measured
      // in separate runs of calls, the device time under CUPTI's tracing: up to 7.4% over seen on
      // the H100 for lessons 01-06 at 2^27 and above, unexplained).
      // On a stream with the dependent launch a kernel starts early and counts as running while it
      // waits for the one before, under a host that CUPTI's tracing slows: left out.
      if (!(p.way == LaunchWay{LaunchPath::stream, true}))
        CHECK(r.device_ms->median <= 1.10 * r.timing->ms.median);
      // Its % of ceiling is against the ceiling launched its way, which was measured.
      CHECK(percent_of_ceiling(r, b).has_value());
    }
  }
}

TEST_CASE("each lesson reads from any float address on the GPU", "[gpu][lessons]") {
  const int lesson = GENERATE(from_range(test::lessons_on(Backend::gpu)));
  DYNAMIC_SECTION("lesson " << lesson) { test::check_misaligned_inputs(gpu(), lesson); }
}

TEST_CASE("lesson 12's finishes are bitwise reproducible on the GPU", "[gpu][lessons]") {
  RunOptions o;
  Session session(gpu(), o);
  session.prepare((1u << 24) + 3);
  CHECK(session.distinct_results(*find_plan(12, Backend::gpu), 256, 20) == 1);
  CHECK(session.distinct_results(*find_plan(12, Backend::gpu, "ordered_ticket"), 256, 20) == 1);
  const std::size_t atomic =
      session.distinct_results(*find_plan(12, Backend::gpu, "atomic_finish"), 256, 20);
  WARN("the atomicAdd finish gave " << atomic << " distinct results in 20 runs");
}

TEST_CASE("lessons 13 and 14: two calls queued back to back are both right on the GPU",
          "[gpu][lessons]") {
  for (int lesson : {13, 14}) test::check_queued_calls(gpu(), lesson);
}

TEST_CASE("lessons 07 to 16 are right past 2^31 elements (64-bit indexing)",
          "[gpu][lessons][huge]") {
  const std::uint64_t n = (std::uint64_t{1} << 31) + 17;  // 8 GiB of floats
  // Positive data: no cancellation, so a lost 2^31 stretch shows within the bound; exact spikes: a
  // lost or doubled block (any 256 consecutive elements hold a spike) shows whatever the bound.
  for (const Distribution d : {Distribution::positive, Distribution::spikes}) {
    RunOptions o;
    o.distribution = d;
    o.seed = grade_seeds[0];
    Session session(gpu(), o);
    session.prepare(n);
    CHECK(session.reference().exact == (d == Distribution::spikes));
    for (const Plan& r : ladder_plans()) {
      if (r.backend != Backend::gpu || r.lesson < 7) continue;
      const CaseResult c = session.run(r, 256, false);
      INFO("lesson " << r.lesson << " " << r.variant << " " << to_string(d)
                     << " got=" << c.check.got << " expected=" << c.check.reference.sum
                     << " tolerance=" << c.check.tolerance);
      CHECK(c.check.verified);
      if (d == Distribution::spikes) CHECK(c.check.got == c.check.reference.sum);
    }
  }
}

// The graded spike case at the sizes the tolerance cannot police (common/host/grading.h): every
// lesson exact, and a plan that drops one block caught, in each shape of plan: lesson 03's tree
// (the last block's inputs lost: 17 of them at 2^31+17, where the spike at the last element shows
// it), lesson 07's persistent grid and finishing block, lesson 12's single pass (a block's whole
// share lost), lesson 13's clusters (a cluster's last block lost in each). On uniform data of the
// same size lesson 03's error hides inside the rounding bound.
TEST_CASE("a lost block cannot hide at 2^28 or 2^31+17: exact spikes on the GPU",
          "[gpu][lessons][huge]") {
  for (const std::uint64_t n : {std::uint64_t{1} << 28, (std::uint64_t{1} << 31) + 17}) {
    const GradeCase spikes{n, 256, grade_seeds[0], Distribution::spikes, true};
    RunOptions o;
    o.distribution = spikes.distribution;
    o.seed = spikes.seed;
    Session session(gpu(), o);
    session.prepare(n);
    REQUIRE(session.reference().exact);
    for (const Plan& r : ladder_plans()) {
      if (r.backend != Backend::gpu || (n > (std::uint64_t{1} << 28) && r.lesson < 7)) continue;
      const CaseResult c = session.run(r, 256, false);
      const auto f = diagnose(c, spikes);
      INFO("lesson " << r.lesson << " " << r.variant << " n=" << n << ": "
                     << f.value_or(Failure{}).why);
      CHECK_FALSE(f);
    }
    for (const int lesson : {3, 7, 12, 14}) {
      const CaseResult lost =
          session.run(test::dropped_block_plan<Backend::gpu>(lesson), 256, false);
      const auto f = diagnose(lost, spikes);
      INFO("lesson " << lesson << " dropped block, n=" << n << ": got " << lost.check.got << " of "
                     << lost.check.reference.sum << ": " << f.value_or(Failure{}).why);
      REQUIRE(f);
      CHECK(f->bug == BugClass::lost_input);
      if (lesson == 3)
        CHECK_THAT(f->why, Catch::Contains("short by 1:") || Catch::Contains("short by 2:"));
      else
        CHECK_THAT(f->why, Catch::Contains("short by "));
      WARN("lesson " << lesson << ", one block dropped, n=" << n << ": " << f->why);
    }
  }
  // What the old check saw at 2^28: uniform data, the rounding bound. Reported, not asserted:
  // whether a block's 256 values sum to more than the bound depends on the seed (it almost never
  // does).
  RunOptions o;
  o.seed = grade_seeds[0];
  Session session(gpu(), o);
  session.prepare(std::uint64_t{1} << 28);
  const CaseResult hidden = session.run(test::dropped_block_plan<Backend::gpu>(3), 256, false);
  WARN("uniform 2^28, one block dropped: |error| "
       << std::abs(hidden.check.got - hidden.check.reference.sum)
       << (hidden.check.verified ? " within" : " outside") << " the tolerance "
       << hidden.check.tolerance);
}

// persistent_grid takes the blocks an SM holds from the occupancy API (common/occupancy.h): every
// answer within the SM's limits, and, as a warning line each, what it is for every persistent plan
// at its block (where it differs from the thread limit the grid used before, the grid changed).
TEST_CASE("persistent grids come from the occupancy API on the GPU", "[gpu][latency]") {
  const DeviceShape s = gpu().shape();
  for (const Plan& p : ladder_plans()) {
    if (p.backend != Backend::gpu || !p.resources) continue;
    for (unsigned block = 32; block <= 1024; block *= 2) {
      const KernelResources r = p.resources(block, s);
      INFO("lesson " << p.lesson << " " << p.variant << " block " << block << ": " << r.registers
                     << " registers, " << r.blocks_per_sm << " blocks an SM");
      CHECK(r.blocks_per_sm >= 1);
      CHECK(r.blocks_per_sm <= s.max_blocks_per_sm);
      CHECK(r.blocks_per_sm * block <= s.max_threads_per_sm);
      CHECK(r.registers > 0);
      CHECK(std::uint64_t{r.registers} * block * r.blocks_per_sm <= s.registers_per_sm);
      CHECK(p.resources(block, s).blocks_per_sm == r.blocks_per_sm);  // asked once, remembered
    }
    const unsigned block = block_for(p, 256, false);
    const KernelResources r = p.resources(block, s);
    const unsigned by_threads = std::min(s.max_threads_per_sm / block, s.max_blocks_per_sm);
    WARN("lesson " << p.lesson << " " << (p.variant.empty() ? "-" : p.variant) << " block " << block
                   << ": " << r.registers << " registers, " << r.blocks_per_sm
                   << " blocks an SM, grid " << r.blocks_per_sm * s.sm_count
                   << (r.blocks_per_sm == by_threads
                           ? " (as the thread limit gave)"
                           : " (the thread limit gave " + std::to_string(by_threads) + ")"));
  }
}

TEST_CASE("the pointer chase visits its whole cycle and times a load on the GPU",
          "[gpu][latency]") {
  const Sampling few{3, 0.2, 1};
  const latency::Chase c = latency::run_chase(gpu(), std::uint64_t{1} << 15, 4096, few);
  CHECK(c.visited_all);
  CHECK(c.timed_hops == 4096);
  CHECK(c.ns_per_load > 0);
  WARN("a chase through 4 MiB (" << c.lines << " lines): " << c.ns_per_load << " ns a load");
}

#include "tests/lessons/trace_checks.h"

TEST_CASE("traces from the GPU are complete and describe the simulator's tree", "[gpu][trace]") {
  auto sim = make_sim_device();
  for (int lesson : test::lessons_on(Backend::gpu)) {
    const Plan* g = find_plan(lesson, Backend::gpu);
    const Plan* s = find_plan(lesson, Backend::sim);
    if (!g || !s || !g->reduce_traced) continue;  // lesson 16: library code, nothing to trace
    for (std::uint64_t n : {64u, 1000u}) {
      const auto on_gpu = test::record(gpu(), *g, n, 32, 5);
      const auto on_sim = test::record(*sim, *s, n, 32, 5);
      INFO("lesson " << lesson << " n=" << n);
      test::check_trace(on_gpu, n, 32);
      test::check_same_tree(on_gpu.trace, on_sim.trace);
    }
  }
}
