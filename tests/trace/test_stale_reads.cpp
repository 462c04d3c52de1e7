// The stale-read finder on hand-made traces: a missing __syncthreads is flagged; a barrier, a
// __syncwarp between lanes of one warp, the same thread or another block is not a race.
#include <catch2/catch.hpp>

#include "common/trace/stale_reads.h"
#include "common/trace/trace_loader.h"
#include "synthetic_trace.h"
#include "test_support.h"

using namespace rl;
using nlohmann::json;

namespace {

// A trace of one launch of `grid` blocks of 64 threads (two warps) around the given events.
Trace trace_of(const json& events, bool barriers = true, int grid = 1) {
  json doc = json::parse(test::read_text(test::data_path("interleaved8.json")));
  doc["launches"][0]["block"] = 64;
  doc["launches"][0]["grid"] = grid;
  doc["barriers"] = barriers;
  doc["capacity"] = 1000;
  doc["events"] = events;
  return parse_trace(doc.dump(), "race.json");
}

json load(int block, int thread, int slot, int input) {
  return {0,     "load",    block, thread, "shared", slot,      "input",
          input, input + 1, "",    -1,     0,        input + 1, 20};
}
json barrier(int block, int line) {
  return {0, "barrier", block, -1, "", -1, "", -1, 0, "", -1, 0, 0, line};
}
json warp_barrier(int lane0, std::uint32_t mask) {
  return {0, "warp_barrier", 0, lane0, "", mask, "", -1, 0, "", -1, 0, 0, 26};
}
// thread adds shared[b] into shared[dst] (reads dst and b, writes dst), at line 27.
json add(int block, int thread, int dst, int b) {
  return {0, "combine", block, thread, "shared", dst, "shared", dst, 1, "shared", b, 2, 3, 27};
}

}  // namespace

TEST_CASE("a read and another thread's write of one slot in one interval are a stale read",
          "[stale]") {
  const Trace t = trace_of(json::array({
      load(0, 37, 37, 1),
      load(0, 5, 5, 0),
      barrier(0, 21),
      add(0, 5, 5, 37),  // thread 5 reads shared[37] ...
      // ... and thread 37 writes it (and reads shared[5], which thread 5 wrote before)
      add(0, 37, 37, 5),
      barrier(0, 28),
  }));
  const auto found = find_stale_reads(t);
  REQUIRE(found.size() == 2);
  const StaleRead& r = found[0];
  REQUIRE(r.launch == 0);
  REQUIRE(r.block == 0);
  REQUIRE(r.slot == 37);
  REQUIRE(r.reader == 5);
  REQUIRE(r.writer == 37);
  REQUIRE(r.read_event == 3);
  REQUIRE(r.write_event == 4);
  REQUIRE(r.operand == 1);
  REQUIRE(r.read_line == 27);
  REQUIRE(r.write_line == 27);
  REQUIRE(!r.write_first);
  REQUIRE(!r.same_warp);
  REQUIRE(r.describe() ==
          "thread 5 read shared[37] at line 27; thread 37 wrote it at line 27 after the read, in "
          "the same interval: "
          "no __syncthreads between");
  // The other pair: thread 37 read shared[5], which thread 5 wrote before it in the same interval.
  const StaleRead& w = found[1];
  REQUIRE(w.reader == 37);
  REQUIRE(w.writer == 5);
  REQUIRE(w.slot == 5);
  REQUIRE(w.write_first);
  REQUIRE(w.describe() ==
          "thread 37 read shared[5] at line 27; thread 5 wrote it at line 27 before the read, in "
          "the same interval: "
          "no __syncthreads between");
}

TEST_CASE("a __syncthreads between the read and the write separates them", "[stale]") {
  const Trace t = trace_of(json::array({
      load(0, 37, 37, 1),
      load(0, 5, 5, 0),
      barrier(0, 21),
      add(0, 5, 5, 37),
      barrier(0, 28),
      {0, "store", 0, 37, "shared", 37, "const", -1, 0, "", -1, 0, 0, 30},
  }));
  REQUIRE(find_stale_reads(t).empty());
}

TEST_CASE("a __syncwarp holding both lanes separates lanes of one warp, and only them", "[stale]") {
  const json before =
      json::array({load(0, 5, 5, 0), load(0, 21, 21, 1), load(0, 37, 37, 2), barrier(0, 21),
                   // thread 5 reads shared[21] (warp 0, lane 21)
                   add(0, 5, 5, 21)});
  auto with = [&](const json& middle) {
    json events = before;
    for (const auto& e : middle) events.push_back(e);
    events.push_back(add(0, 21, 21, 37));  // thread 21 writes shared[21]
    return trace_of(events);
  };
  REQUIRE(find_stale_reads(with(json::array({warp_barrier(0, 0xffffffffu)}))).empty());
  REQUIRE(find_stale_reads(with(json::array({warp_barrier(0, (1u << 5) | (1u << 21))}))).empty());
  // No __syncwarp, or one without lane 21, or the other warp's: a race within the warp.
  for (const json& middle : {json::array(), json::array({warp_barrier(0, 0xffffu)}),
                             json::array({warp_barrier(32, 0xffffffffu)})}) {
    const auto found = find_stale_reads(with(middle));
    INFO(middle.dump());
    REQUIRE(found.size() == 1);
    REQUIRE(found[0].reader == 5);
    REQUIRE(found[0].writer == 21);
    REQUIRE(found[0].same_warp);
    REQUIRE(found[0].describe() ==
            "thread 5 read shared[21] at line 27; thread 21 wrote it at line 27 after the read, in "
            "the same interval: "
            "no __syncthreads or __syncwarp between");
  }
  // A __syncwarp does nothing for lanes of different warps.
  const Trace cross = trace_of(json::array({load(0, 5, 5, 0), load(0, 37, 37, 1), barrier(0, 21),
                                            add(0, 5, 5, 37), warp_barrier(0, 0xffffffffu),
                                            warp_barrier(32, 0xffffffffu), add(0, 37, 37, 5)}));
  REQUIRE(find_stale_reads(cross).size() == 2);
}

TEST_CASE("a thread reading and writing its own slot is no race, nor are other blocks or atomics",
          "[stale]") {
  // Thread 5 adds into its own shared[5] twice without a barrier.
  REQUIRE(
      find_stale_reads(trace_of(json::array({load(0, 5, 5, 0), add(0, 5, 5, 5), add(0, 5, 5, 5)})))
          .empty());
  // The same slot in two blocks is two slots.
  REQUIRE(find_stale_reads(trace_of(json::array({load(0, 5, 5, 0), load(1, 37, 37, 1),
                                                 add(0, 5, 5, 37), load(1, 9, 37, 2)}),
                                    true, 2))
              .empty());
  // Two atomics on one shared slot serialise; a plain read of it against an atomic write does not.
  const json atomic5 = {0, "atomic", 0, 5, "shared", 0, "shared", 0, 1, "const", -1, 1, 2, 27};
  const json atomic9 = {0, "atomic", 0, 9, "shared", 0, "shared", 0, 2, "const", -1, 1, 3, 27};
  REQUIRE(
      find_stale_reads(trace_of(json::array({load(0, 0, 0, 0), barrier(0, 21), atomic5, atomic9})))
          .empty());
  const auto plain = find_stale_reads(
      trace_of(json::array({load(0, 0, 0, 0), barrier(0, 21), atomic5, add(0, 1, 1, 0)})));
  REQUIRE(plain.size() == 1);
  REQUIRE(plain[0].reader == 1);
  REQUIRE(plain[0].writer == 5);
}

TEST_CASE("without recorded barriers the finder cannot look, and says nothing", "[stale]") {
  const Trace t = trace_of(
      json::array({load(0, 37, 37, 1), load(0, 5, 5, 0), add(0, 5, 5, 37), add(0, 37, 37, 5)}),
      false);
  REQUIRE(!t.barriers);
  REQUIRE(find_stale_reads(t).empty());
}

TEST_CASE("the synthetic trees, with their barriers, have no stale read", "[stale]") {
  using test::Pattern;
  for (Pattern p : {Pattern::sequential, Pattern::interleaved_divergent,
                    Pattern::interleaved_strided, Pattern::warp_shuffle}) {
    INFO(test::slug_of(p));
    REQUIRE(find_stale_reads(parse_trace(test::synthetic_trace(p, 1000, 128), "s.json")).empty());
  }
  REQUIRE(find_stale_reads(load_trace(test::data_path("seq8_two_launches.json"))).empty());
  REQUIRE(find_stale_reads(load_trace(test::data_path("interleaved8.json"))).empty());
  // Without its barriers the sequential tree races: a level's reads meet the next level's writes.
  json doc = json::parse(test::synthetic_trace(Pattern::sequential, 64, 64));
  json events = json::array();
  for (const auto& e : doc["events"]) {
    if (e[1] != "barrier") events.push_back(e);
  }
  doc["events"] = events;
  REQUIRE(!find_stale_reads(parse_trace(doc.dump(), "nobarriers.json")).empty());
}
