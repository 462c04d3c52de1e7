// Derived facts: active threads, divergent warps, bank conflicts, shuffle lanes.
#include <catch2/catch.hpp>

#include "common/trace/trace_facts.h"
#include "common/trace/trace_loader.h"
#include "synthetic_trace.h"
#include "test_support.h"

using namespace rl;
using test::Pattern;

namespace {
TraceFacts facts_of(Pattern p, int n, int block) { return compute_facts(parse_trace(test::synthetic_trace(p, n, block), "s.json")); }
}  // namespace

TEST_CASE("bank of a 4-byte word is its index modulo 32", "[facts]") {
  REQUIRE(bank_of(0) == 0);
  REQUIRE(bank_of(31) == 31);
  REQUIRE(bank_of(32) == 0);
  REQUIRE(bank_of(70) == 6);
}

TEST_CASE("facts of the hand-written 8-element sequential trace", "[facts]") {
  const Trace t = load_trace(test::data_path("seq8_two_launches.json"));
  const TraceFacts f = compute_facts(t);
  REQUIRE(f.launches.size() == 2);
  REQUIRE(f.steps.size() == 4 + 3);
  const StepFacts* s0 = f.find(0, 0);
  REQUIRE(s0 != nullptr);
  REQUIRE(s0->active_threads == 8);  // two blocks of 4 load
  REQUIRE(s0->active_warps == 2);
  REQUIRE(s0->divergent_warps == 0);  // a 4-thread block's warp has 4 lanes, all active
  const StepFacts* s1 = f.find(0, 1);
  REQUIRE(s1->active_threads == 4);
  REQUIRE(s1->divergent_warps == 2);
  REQUIRE(s1->worst_bank_conflict == 1);
  REQUIRE(s1->lines[0] == 28);
  const StepFacts* store = f.find(0, 3);
  REQUIRE(store->active_threads == 0);  // stores do not count as active work
  REQUIRE(store->shared_accesses == 2);  // the src read of shared[0] in each block
  REQUIRE(f.find(0, 9) == nullptr);
  REQUIRE(f.total.active_thread_steps == 8 + 4 + 2 + 2 + 1);
}

TEST_CASE("interleaved (strided index) conflicts on banks, sequential addressing does not", "[facts]") {
  const TraceFacts strided = facts_of(Pattern::interleaved_strided, 256, 256);
  const TraceFacts seq = facts_of(Pattern::sequential, 256, 256);
  REQUIRE(seq.total.worst_bank_conflict == 1);
  REQUIRE(seq.total.conflicted_accesses == 0);
  REQUIRE(strided.total.worst_bank_conflict >= 2);
  REQUIRE(strided.total.conflicted_accesses > seq.total.conflicted_accesses);
  REQUIRE(strided.total.shared_wavefronts > seq.total.shared_wavefronts);
  // First combine level of the strided pattern: lane t touches 2t (dst) and 2t+1 (src): 2-way each.
  const StepFacts* s1 = strided.find(0, 1);
  REQUIRE(s1 != nullptr);
  REQUIRE(s1->worst_bank_conflict == 2);
  for (const auto& a : s1->accesses) {
    REQUIRE(a.addresses.size() == 32);
    REQUIRE(a.banks.size() == 32);
    REQUIRE(a.banks[1] == bank_of(a.addresses[1]));
  }
  // Stride 4 words at level 2: 4-way.
  REQUIRE(strided.find(0, 2)->worst_bank_conflict == 4);
}

TEST_CASE("the divergent interleaved pattern has more divergent warps than sequential addressing", "[facts]") {
  const TraceFacts div = facts_of(Pattern::interleaved_divergent, 256, 256);
  const TraceFacts seq = facts_of(Pattern::sequential, 256, 256);
  const TraceFacts strided = facts_of(Pattern::interleaved_strided, 256, 256);
  REQUIRE(div.total.divergent_warp_steps > seq.total.divergent_warp_steps);
  REQUIRE(div.total.divergent_warp_steps > strided.total.divergent_warp_steps);
  // Level 1 of the divergent pattern: even threads of all 8 warps work, every warp diverges.
  const StepFacts* d1 = div.find(0, 1);
  REQUIRE(d1->active_threads == 128);
  REQUIRE(d1->active_warps == 8);
  REQUIRE(d1->divergent_warps == 8);
  // Level 1 of sequential addressing: the first 128 threads, 4 full warps, none divergent.
  const StepFacts* s1 = seq.find(0, 1);
  REQUIRE(s1->active_threads == 128);
  REQUIRE(s1->active_warps == 4);
  REQUIRE(s1->divergent_warps == 0);
}

TEST_CASE("shuffles list (dst lane, src lane) pairs per warp and step", "[facts]") {
  const TraceFacts f = facts_of(Pattern::warp_shuffle, 32, 32);
  const StepFacts* s1 = f.find(0, 1);
  REQUIRE(s1 != nullptr);
  REQUIRE(s1->shuffles.size() == 1);
  REQUIRE(s1->shuffles[0].pairs.size() == 16);
  REQUIRE(s1->shuffles[0].pairs[3] == std::pair{3, 19});
  REQUIRE(s1->shared_accesses == 0);
  REQUIRE(s1->worst_bank_conflict == 0);
  const StepFacts* s5 = f.find(0, 5);
  REQUIRE(s5->shuffles[0].pairs == std::vector<std::pair<int, int>>{{0, 1}});
  REQUIRE(f.total.shuffles == 16 + 8 + 4 + 2 + 1);
}
