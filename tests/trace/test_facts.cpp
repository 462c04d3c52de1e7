// Derived facts per (launch, level): active threads, divergent warps, bank conflicts, shuffle
// lanes, source lines.
#include <catch2/catch.hpp>

#include "common/trace/trace_facts.h"
#include "common/trace/trace_loader.h"
#include "synthetic_trace.h"
#include "test_support.h"

using namespace rl;
using nlohmann::json;
using test::Pattern;

namespace {
TraceFacts facts_of(Pattern p, int n, int block) {
  return compute_facts(parse_trace(test::synthetic_trace(p, n, block), "s.json"));
}
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
  // Launch 0 at levels 0, 1, 2; launch 1 (loads of scratch at level 2) at 2 and 3.
  REQUIRE(f.levels.size() == 3 + 2);
  const LevelFacts* l0 = f.find(0, 0);
  REQUIRE(l0 != nullptr);
  REQUIRE(l0->active_threads == 8);  // two blocks of 4 load
  REQUIRE(l0->active_warps == 2);
  REQUIRE(l0->divergent_warps == 0);  // a 4-thread block's warp has 4 lanes, all active
  REQUIRE(l0->lines == std::vector<int>{18, 19});  // the loads and their barrier
  const LevelFacts* l1 = f.find(0, 1);
  REQUIRE(l1->active_threads == 4);
  REQUIRE(l1->divergent_warps == 2);
  REQUIRE(l1->worst_bank_conflict == 1);
  REQUIRE(l1->lines == std::vector<int>{28, 29});
  // Level 2 of launch 0 holds the last combines and the stores of what they made.
  const LevelFacts* l2 = f.find(0, 2);
  REQUIRE(l2->active_threads == 2);  // stores do not count as active work
  REQUIRE(l2->lines == std::vector<int>{28, 29, 32});
  int store_reads = 0;
  for (const auto& a : l2->accesses) {
    if (a.kind == EventKind::store) {
      REQUIRE(a.side == AccessSide::a);
      ++store_reads;
    }
  }
  REQUIRE(store_reads == 2);                  // the store's read of shared[0] in each block
  REQUIRE(l2->shared_accesses == 2 * 3 + 2);  // each combine's dst, a and b, and the two stores' a
  const LevelFacts* l3 = f.find(1, 3);
  REQUIRE(l3 != nullptr);
  REQUIRE(l3->active_threads == 1);
  REQUIRE(l3->divergent_warps == 1);  // one of the 2-thread block's lanes works
  REQUIRE(f.find(1, 2)->active_threads == 2);
  REQUIRE(f.find(0, 9) == nullptr);
  REQUIRE(f.find(1, 0) == nullptr);
  REQUIRE(f.total.active_thread_levels == 8 + 4 + 2 + 2 + 1);
  REQUIRE(f.launches[1].active_thread_levels == 2 + 1);
}

TEST_CASE("interleaved (strided index) conflicts on banks, sequential addressing does not",
          "[facts]") {
  const TraceFacts strided = facts_of(Pattern::interleaved_strided, 256, 256);
  const TraceFacts seq = facts_of(Pattern::sequential, 256, 256);
  REQUIRE(seq.total.worst_bank_conflict == 1);
  REQUIRE(seq.total.conflicted_accesses == 0);
  REQUIRE(strided.total.worst_bank_conflict >= 2);
  REQUIRE(strided.total.conflicted_accesses > seq.total.conflicted_accesses);
  REQUIRE(strided.total.shared_wavefronts > seq.total.shared_wavefronts);
  // First combine level of the strided pattern: lane t writes and reads 2t (dst, a) and reads
  // 2t+1 (b): 2-way each, on all three sides.
  const LevelFacts* s1 = strided.find(0, 1);
  REQUIRE(s1 != nullptr);
  REQUIRE(s1->worst_bank_conflict == 2);
  int sides[3] = {0, 0, 0};
  for (const auto& a : s1->accesses) {
    REQUIRE(a.addresses.size() == 32);
    REQUIRE(a.banks.size() == 32);
    REQUIRE(a.banks[1] == bank_of(a.addresses[1]));
    REQUIRE(a.conflict_ways == 2);
    ++sides[static_cast<int>(a.side)];
  }
  REQUIRE(sides[0] == 4);  // 128 working threads: 4 warps, one access per side each
  REQUIRE(sides[1] == 4);
  REQUIRE(sides[2] == 4);
  // Stride 4 words at level 2: 4-way.
  REQUIRE(strided.find(0, 2)->worst_bank_conflict == 4);
}

TEST_CASE("the divergent interleaved pattern has more divergent warps than sequential addressing",
          "[facts]") {
  const TraceFacts div = facts_of(Pattern::interleaved_divergent, 256, 256);
  const TraceFacts seq = facts_of(Pattern::sequential, 256, 256);
  const TraceFacts strided = facts_of(Pattern::interleaved_strided, 256, 256);
  REQUIRE(div.total.divergent_warp_levels > seq.total.divergent_warp_levels);
  REQUIRE(div.total.divergent_warp_levels > strided.total.divergent_warp_levels);
  // Level 1 of the divergent pattern: even threads of all 8 warps work, every warp diverges.
  const LevelFacts* d1 = div.find(0, 1);
  REQUIRE(d1->active_threads == 128);
  REQUIRE(d1->active_warps == 8);
  REQUIRE(d1->divergent_warps == 8);
  // Level 1 of sequential addressing: the first 128 threads, 4 full warps, none divergent.
  const LevelFacts* s1 = seq.find(0, 1);
  REQUIRE(s1->active_threads == 128);
  REQUIRE(s1->active_warps == 4);
  REQUIRE(s1->divergent_warps == 0);
}

TEST_CASE("shuffles list (dst lane, src lane) pairs per warp and level", "[facts]") {
  const TraceFacts f = facts_of(Pattern::warp_shuffle, 32, 32);
  // Level 0: every lane adds its element to the constant 0 in a register.
  const LevelFacts* l0 = f.find(0, 0);
  REQUIRE(l0->active_threads == 32);
  REQUIRE(l0->shuffles.empty());
  REQUIRE(l0->lines == std::vector<int>{test::line::register_add});
  const LevelFacts* s1 = f.find(0, 1);
  REQUIRE(s1 != nullptr);
  REQUIRE(s1->shuffles.size() == 1);
  REQUIRE(s1->shuffles[0].pairs.size() == 16);
  REQUIRE(s1->shuffles[0].pairs[3] == std::pair{3, 19});
  REQUIRE(s1->shared_accesses == 0);
  REQUIRE(s1->worst_bank_conflict == 0);
  REQUIRE(s1->lines == std::vector<int>{test::line::shuffle});
  const LevelFacts* s5 = f.find(0, 5);
  REQUIRE(s5->shuffles[0].pairs == std::vector<std::pair<int, int>>{{0, 1}});
  REQUIRE(f.total.shuffles == 16 + 8 + 4 + 2 + 1);
}

TEST_CASE("a shuffle's b read from memory comes from the lane that held that location", "[facts]") {
  json doc = json::parse(test::read_text(test::data_path("interleaved8.json")));
  doc["launches"][0]["block"] = 32;
  doc["events"] = json::array({
      {0, "load", 0, 0, "shared", 0, "input", 0, 1, "", -1, 0, 1, 10},
      {0, "load", 0, 16, "shared", 16, "input", 1, 2, "", -1, 0, 2, 10},
      {0, "barrier", 0, -1, "", -1, "", -1, 0, "", -1, 0, 0, 11},
      {0, "shuffle", 0, 16, "register", 16, "shared", 16, 2, "const", -1, 0, 2, 12},
      {0, "shuffle", 0, 0, "register", 0, "shared", 0, 1, "shared", 16, 2, 3, 12},  // from lane 16
      // nobody held input[3]
      {0, "shuffle", 0, 1, "register", 1, "input", 2, 3, "input", 3, 4, 7, 12},
  });
  const TraceFacts f = compute_facts(parse_trace(doc.dump(), "mem.json"));
  const LevelFacts* l = f.find(0, 1);
  REQUIRE(l != nullptr);
  REQUIRE(l->shuffles.size() == 1);
  REQUIRE(l->shuffles[0].pairs == std::vector<std::pair<int, int>>{{0, 16}, {1, -1}});
  // Lane 16's shuffle adds a constant: it stays at level 0, with its own pair of an unknown source.
  REQUIRE(f.find(0, 0)->shuffles[0].pairs == std::vector<std::pair<int, int>>{{16, -1}});
}
