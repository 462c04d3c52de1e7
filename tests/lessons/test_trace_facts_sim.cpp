// What the first three lessons teach, measured from their own traces (the facts library of
// common/trace): lesson 01's scattered threads diverge more warps than lesson 02's, and lesson 02's
// strided index conflicts in more shared-memory banks than lesson 03's.
#include "tests/lessons/trace_checks.h"

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
