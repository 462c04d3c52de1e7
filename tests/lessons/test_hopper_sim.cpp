// Lessons 13 and 14 on the simulator, beyond what every ladder lesson gets there (test_lessons_sim.cpp,
// test_traces_sim.cpp): exact around every block and cluster edge, the same bits over repeated
// runs in shuffled thread order and from calls queued back to back, a full grid of clusters, and
// __reduce_add_sync's integer sum.
#include "tests/lessons/hopper_checks.h"

#include "common/host/sim_bridge.h"

using namespace rl;

TEST_CASE("lessons 13 and 14 are exact around every block and cluster edge on the simulator",
          "[sim][lessons][hopper]") {
  auto device = make_sim_device();
  test::check_cluster_edges(*device, {32, 1024});
}

TEST_CASE("lessons 13 and 14's plans give the same bits every run, in shuffled thread order",
          "[sim][lessons][hopper]") {
  auto device = make_sim_device();
  RunOptions o;
  o.schedule = SimSchedule::shuffled;
  apply_simulator_options(o);
  Session session(*device, o);
  session.prepare((1u << 18) + 3);
  for (const Plan& r : test::hopper_plans(Backend::sim)) {
    INFO("lesson " << r.lesson << " " << r.variant);
    CHECK(session.distinct_results(r, 256, 5) == 1);
  }
  apply_simulator_options(RunOptions{});
}

TEST_CASE("lessons 13 and 14's calls queued back to back give the same bits on the simulator",
          "[sim][lessons][hopper]") {
  auto device = make_sim_device();
  test::check_back_to_back(*device, (1u << 16) + 5, 8);
}

TEST_CASE("lesson 14 fills the GPU with whole clusters and stays exact on the simulator",
          "[sim][lessons][hopper]") {
  // 32-thread blocks, 512 floats a block: past this many the grid is capped at the clusters an H100
  // holds (132 SMs x 32 blocks, in clusters of 2 (the lesson's own plan), of 4 and of 16), and
  // every block reads several shares.
  auto device = make_sim_device();
  const std::uint64_t n = std::uint64_t{132} * 32 * 512 + 7;
  for (const char* variant : {"", "cluster4_pdl", "cluster16"}) {
    const CaseResult c = test::run_case(*device, *find_plan(14, Backend::sim, variant), n, 32, 3,
                                        Distribution::spikes);
    INFO("lesson 14 " << variant << ": got " << c.check.got << ", expected "
                      << c.check.reference.sum);
    CHECK(c.check.got == c.check.reference.sum);
  }
}

TEST_CASE("__reduce_add_sync's integer sum is exact on the simulator", "[sim][lessons][hopper]") {
  auto device = make_sim_device();
  for (const std::uint64_t n : {0u, 1u, 31u, 32u, 33u, 1000u, (1u << 16) + 1, (1u << 20) + 7})
    test::check_int_sum<Backend::sim>(*device, n);
}
