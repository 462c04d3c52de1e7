// The simulated ladder's counts against numbers worked out by hand from the kernels, and the GPU
// figures beside them against the committed results file read independently.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/host/course.h"
#include "common/host/session.h"
#include "common/host/sim_bridge.h"
#include "common/runner/sim_counts.h"

using namespace rl;

namespace {

RungCounts counts_of(Device& device, int lesson, std::uint64_t n, unsigned block,
                     std::uint64_t traced_n) {
  RunOptions o;
  o.seed = 3;
  Session session(device, o);
  session.prepare(n);
  return count_rung(device, o, session, *find_plan(lesson, Backend::sim), block, traced_n);
}

}  // namespace

TEST_CASE("the simulated ladder counts each rung as its kernel says", "[sim][counts]") {
  auto device = make_sim_device();
  // Lesson 01, n = 2^16, block 256: 256 blocks, then one block over their 256 partials: two
  // launches, one input a thread, eight levels a pass: 16 additions from an input to the total,
  // which the bound the check's tolerance uses covers with one more a pass (reference.h).
  // A block's barriers: one after the load and one a level, 1 + 8. Traced at 2^12: 16 blocks.
  const RungCounts c1 = counts_of(*device, 1, 1 << 16, 256, 1 << 12);
  CHECK(c1.launches == 2);
  CHECK(c1.elements_per_thread == Approx(1.0));
  CHECK(c1.longest_chain >= 16);
  CHECK(c1.longest_chain <= 16 + 2);
  CHECK(c1.traced_n == 1 << 12);
  CHECK(c1.barriers_per_block == Approx(9.0));
  // Lesson 03 removes lesson 02's bank conflicts: every warp access one pass; 02's take more.
  const RungCounts c2 = counts_of(*device, 2, 1 << 16, 256, 1 << 12);
  const RungCounts c3 = counts_of(*device, 3, 1 << 16, 256, 1 << 12);
  CHECK(c3.passes_per_access == Approx(1.0));
  CHECK(c2.passes_per_access > 1.5);
  // Lesson 01's working lanes are scattered over every warp; 02 packs them into few warps.
  CHECK(c1.lanes_per_warp_step < c2.lanes_per_warp_step);
  // Lesson 04 adds two inputs while loading: half the blocks, two inputs a thread.
  const RungCounts c4 = counts_of(*device, 4, 1 << 16, 256, 1 << 12);
  CHECK(c4.elements_per_thread == Approx(2.0));
  // Lesson 12: one launch, whatever n; many inputs a thread on the simulator's grid.
  const RungCounts c12 = counts_of(*device, 12, 1 << 20, 1024, 1 << 12);
  CHECK(c12.launches == 1);
  CHECK(c12.elements_per_thread > 4);
  // The trace is never larger than the run.
  CHECK(counts_of(*device, 3, 1000, 256, 1 << 12).traced_n == 1000);
}

TEST_CASE("the GPU figures beside the counts are the committed file's", "[sim][counts]") {
  const std::string path = std::string(RL_REPO_ROOT) + "/assets/results/h100-bench.json";
  std::string why;
  const auto measured = MeasuredLadder::load(path, why);
  REQUIRE(measured);
  std::ifstream in(path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  CHECK(measured->device == doc["device"]["name"].get<std::string>());
  CHECK(measured->date == doc["created_utc"].get<std::string>().substr(0, 10));
  int checked = 0;
  for (const auto& r : doc["runs"]) {
    const auto m = measured->find(r["lesson"].get<int>(), r["variant"].get<std::string>(),
                                  r["n"].get<std::uint64_t>(), r["block"].get<unsigned>());
    REQUIRE(m);
    CHECK(m->median_ms == r["time"]["median_ms"].get<double>());
    ++checked;
  }
  CHECK(checked > 100);
  CHECK_FALSE(measured->find(1, "", 3, 256));  // no run at n = 3
  CHECK_FALSE(MeasuredLadder::load(path + ".absent", why));
  CHECK(why.find("cannot read") != std::string::npos);
}
