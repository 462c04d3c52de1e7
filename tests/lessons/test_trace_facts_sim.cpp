// What the first three lessons teach, measured from their own traces (the facts library of
// common/trace): lesson 01's scattered threads diverge more warps than lesson 02's, and lesson 02's
// strided index conflicts in more shared-memory banks than lesson 03's. And the trace's bank
// conflicts against the hardware's: what ncu counted on the H100 (tests/host/fixtures).
#include "tests/lessons/trace_checks.h"

#include <fstream>
#include <iterator>
#include <string>

#include "common/host/ncu_csv.h"
#include "common/host/profile_record.h"
#include "common/trace/trace_facts.h"
#include "common/trace/trace_loader.h"

using namespace rl;

namespace {
TraceFacts facts_of(Device& device, int lesson) {
  // 256-thread blocks: eight warps, so "some warps idle" and "every warp half idle" differ.
  const auto recorded = test::record(device, *find_plan(lesson, Backend::sim), 1024, 256, 7);
  return compute_facts(parse_trace(recorded.trace.dump(), "lesson " + std::to_string(lesson)));
}
}  // namespace

TEST_CASE("traces show lesson 01 diverging more than 02, and 02 conflicting more than 03",
          "[sim][trace][facts]") {
  auto device = make_sim_device();
  const TraceFacts f1 = facts_of(*device, 1);
  const TraceFacts f2 = facts_of(*device, 2);
  const TraceFacts f3 = facts_of(*device, 3);
  INFO("divergent warp-levels: 01=" << f1.total.divergent_warp_levels
                                    << " 02=" << f2.total.divergent_warp_levels
                                    << " 03=" << f3.total.divergent_warp_levels);
  INFO("worst bank conflict: 01=" << f1.total.worst_bank_conflict
                                  << " 02=" << f2.total.worst_bank_conflict
                                  << " 03=" << f3.total.worst_bank_conflict);
  CHECK(f1.total.divergent_warp_levels > f2.total.divergent_warp_levels);
  CHECK(f2.total.conflicted_accesses > f3.total.conflicted_accesses);
  CHECK(f2.total.shared_wavefronts > f3.total.shared_wavefronts);
  CHECK(f2.total.worst_bank_conflict >= 8);  // 256 threads, stride 4 or 8: eight words share a bank
  CHECK(f3.total.worst_bank_conflict == 1);  // sequential addressing: one lane per bank
}

TEST_CASE("lesson 02's trace predicts the shared-memory wavefronts the H100 counted per block",
          "[sim][trace][facts]") {
  // ncu on the H100: lesson 02 at 2^20, block 256, three launches of 4096, 16 and 1 blocks.
  std::ifstream in(std::string(RL_FIXTURES_DIR) + "/ncu-02_interleaved_strided.csv");
  REQUIRE(in);
  const std::string csv{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto launches =
      profile_records(parse_ncu_csv(csv), {2, "interleaved_strided", "", 1u << 20, 256});
  REQUIRE(launches.size() == 3);

  // One 256-thread block on the simulator: which lanes touch which words at each level of the tree
  // depends neither on n nor on the values, so its wavefronts are every block's. A warp access's
  // wavefronts are its n-way; its destination side is a store, its operands are loads.
  auto device = make_sim_device();
  const auto recorded = test::record(*device, *find_plan(2, Backend::sim), 256, 256, 7);
  const TraceFacts f = compute_facts(parse_trace(recorded.trace.dump(), "lesson 02"));
  REQUIRE(f.launches.size() == 1);
  std::int64_t loads = 0, stores = 0;
  for (const auto& level : f.levels)
    for (const auto& a : level.accesses)
      (a.side == AccessSide::dst ? stores : loads) += a.conflict_ways;
  REQUIRE(loads + stores == f.launches[0].shared_wavefronts);

  for (std::size_t launch = 0; launch < launches.size(); ++launch) {
    const auto& c = launches[launch]["counters"];
    const auto grid = launches[launch]["grid"].get<std::int64_t>();
    INFO("launch " << launch << " of " << grid << " blocks: the trace predicts " << loads
                   << " load and " << stores << " store wavefronts a block; the H100 counted "
                   << c["shared_ld_wavefronts"] << " and " << c["shared_st_wavefronts"]);
    CHECK(c["shared_st_wavefronts"].get<std::int64_t>() == stores * grid);
    if (grid < 132) {  // 16 blocks and 1, fewer than the H100's SMs: exactly the trace's count
      CHECK(c["shared_ld_wavefronts"].get<std::int64_t>() == loads * grid);
    } else {  // 4096 blocks resident together: the H100 counted a few more loads', never fewer
      CHECK(c["shared_ld_wavefronts"].get<std::int64_t>() >= loads * grid);
    }
  }
}
