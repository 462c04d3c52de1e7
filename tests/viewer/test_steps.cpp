// Steps: a line's k-th run by every thread between two of its barriers, launch by launch. Checked
// on the committed traces: lesson 03's rows are Harris's (the loads, one row per stride, the
// store), every write is in exactly one step, and a trace without barriers (a GPU's) gets the same
// steps.
#include <catch2/catch.hpp>

#include <algorithm>

#include "viewer/steps.h"
#include "viewer_test_support.h"

using namespace rl;
using namespace rl::viewer;

namespace {

void check_partition(const Trace& t, const StepIndex& idx) {
  std::vector<int> seen(t.events.size(), 0);
  for (int s = 0; s < idx.count(); ++s) {
    const Step& st = idx.steps[static_cast<std::size_t>(s)];
    for (int e : st.events) {
      ++seen[static_cast<std::size_t>(e)];
      REQUIRE(idx.event_step[static_cast<std::size_t>(e)] == s);
      REQUIRE(t.events[static_cast<std::size_t>(e)].launch == st.launch);
      REQUIRE(!is_barrier(t.events[static_cast<std::size_t>(e)].kind));
    }
    // Lines: those of its events, then of its barriers, each once.
    std::vector<int> expected;
    for (int e : st.events) {
      const int l = t.events[static_cast<std::size_t>(e)].line;
      if (std::find(expected.begin(), expected.end(), l) == expected.end()) expected.push_back(l);
    }
    for (int e : st.barriers) {
      const int l = t.events[static_cast<std::size_t>(e)].line;
      if (std::find(expected.begin(), expected.end(), l) == expected.end()) expected.push_back(l);
    }
    REQUIRE(idx.lines(s) == expected);
    if (s > 0) {
      const Step& p = idx.steps[static_cast<std::size_t>(s - 1)];
      REQUIRE(std::pair{p.launch, p.phase} <= std::pair{st.launch, st.phase});
    }
  }
  for (std::size_t i = 0; i < t.events.size(); ++i)
    REQUIRE(seen[i] == (is_barrier(t.events[i].kind) ? 0 : 1));
  // Each block's own events, in event order.
  std::size_t total = 0;
  for (std::size_t l = 0; l < t.launches.size(); ++l) {
    for (int b = 0; b < t.launches[l].grid; ++b) {
      const auto [first, last] = idx.events_of(static_cast<int>(l), b);
      for (const int* p = first; p != last; ++p) {
        REQUIRE(t.events[static_cast<std::size_t>(*p)].launch == static_cast<int>(l));
        REQUIRE(t.events[static_cast<std::size_t>(*p)].block == b);
        if (p != first) REQUIRE(*(p - 1) < *p);
      }
      total += static_cast<std::size_t>(last - first);
    }
  }
  REQUIRE(total == t.events.size());
}

}  // namespace

TEST_CASE("lesson 03's steps are the slides' rows: loads, one per stride, the store", "[steps]") {
  const Trace t = test::asset("03_sequential_addressing.sim.json");
  const StepIndex idx = index_steps(t);
  check_partition(t, idx);
  // Launch 0 (2 blocks of 32): the loads, strides 16, 8, 4, 2, 1, the store; launch 1 the same.
  REQUIRE(idx.count() == 14);
  REQUIRE(idx.launch_first == std::vector<int>{0, 7});
  REQUIRE(idx.launch_count == std::vector<int>{7, 7});
  const int active[] = {64, 32, 16, 8, 4, 2, 2};
  for (int s = 0; s < 7; ++s) {
    INFO("step " << s + 1);
    REQUIRE(idx.steps[static_cast<std::size_t>(s)].active_threads == active[s]);
  }
  // The loads and their __syncthreads; the addition and its; the store.
  REQUIRE(idx.lines(0) == std::vector<int>{14, 15});
  for (int s = 1; s <= 5; ++s) REQUIRE(idx.lines(s) == std::vector<int>{21, 22});
  REQUIRE(idx.lines(6) == std::vector<int>{24});
  REQUIRE(idx.first_with_additions() == 1);
  // A running sum that starts from 0 (lesson 10's first step, 0 + input[t]) is not yet the picture.
  const Trace ten = test::asset("10_multi_block_two_kernel.sim.json");
  REQUIRE(index_steps(ten).first_with_additions() == 1);
  REQUIRE(idx.steps[1].worst_conflict == 1);   // consecutive words: no bank conflict
  REQUIRE(idx.steps[1].divergent_warps == 2);  // 16 of each block's 32 lanes
}

TEST_CASE("a step's shared accesses: one per warp, line and operand, loads and stores apart",
          "[steps]") {
  // Lesson 02 at block 256: launch 1 is one block over 2 values, so its first line stores 2 loads
  // and 254 zeros (events of two kinds) into partial[0..255]: one store per warp, 8 in all, no
  // conflict. Its first addition (stride 1, partial[2 tid] += partial[2 tid + 1], 128 threads):
  // 4 warps, two loads and a store each, every one 2-way.
  const Trace t = test::asset("02_interleaved_strided.b256.sim.json");
  const StepIndex idx = index_steps(t);
  const Step& load = idx.steps[static_cast<std::size_t>(idx.launch_first[1])];
  REQUIRE(load.shared_stores == 8);
  REQUIRE(load.store_passes == 8);
  REQUIRE(load.shared_loads == 0);
  REQUIRE(load.shared_accesses == 8);
  const Step& add = idx.steps[static_cast<std::size_t>(idx.launch_first[1] + 1)];
  REQUIRE(add.shared_loads == 8);
  REQUIRE(add.load_passes == 16);
  REQUIRE(add.shared_stores == 4);
  REQUIRE(add.store_passes == 8);
  REQUIRE(add.worst_conflict == 2);
}

TEST_CASE("without barrier events (a GPU trace) the steps are the same", "[steps]") {
  for (const char* name : {"03_sequential_addressing.sim.json",
                           "02_interleaved_strided.b256.sim.json", "08_warp_shuffle.sim.json"}) {
    INFO(name);
    const Trace with = test::asset(name);
    const Trace without = test::without_barriers(name);
    const StepIndex a = index_steps(with), b = index_steps(without);
    check_partition(without, b);
    REQUIRE(a.count() == b.count());
    for (int s = 0; s < a.count(); ++s)
      REQUIRE(a.steps[static_cast<std::size_t>(s)].active_threads ==
              b.steps[static_cast<std::size_t>(s)].active_threads);
  }
}

TEST_CASE("warp-synchronous tails: each __syncwarp starts a step, so a row is one kind of work",
          "[steps]") {
  const Trace t = test::asset("05_unroll_last_warp.sim.json");
  const StepIndex idx = index_steps(t);
  check_partition(t, idx);
  for (const Step& st : idx.steps) {
    int kinds[8] = {};
    for (int e : st.events) kinds[static_cast<int>(t.events[static_cast<std::size_t>(e)].kind)] = 1;
    // A row may load and add (a thread's first add while loading), but a tail step either adds or
    // stores.
    if (st.phase > 1)
      REQUIRE(kinds[static_cast<int>(EventKind::combine)] +
                  kinds[static_cast<int>(EventKind::store)] ==
              1);
  }
}

TEST_CASE("a grid-stride loop that runs once more in some threads does not shift their later steps",
          "[steps]") {
  // Lesson 10's second launch: thread 0 alone adds the one partial, then every thread shuffles.
  const Trace t = test::asset("10_multi_block_two_kernel.sim.json");
  const StepIndex idx = index_steps(t);
  for (int s = idx.launch_first[1]; s < idx.count(); ++s) {
    const Step& st = idx.steps[static_cast<std::size_t>(s)];
    int kinds[8] = {};
    for (int e : st.events) kinds[static_cast<int>(t.events[static_cast<std::size_t>(e)].kind)] = 1;
    INFO("step " << s + 1 << " line " << st.line);
    REQUIRE(kinds[0] + kinds[1] + kinds[2] + kinds[3] + kinds[4] == 1);  // one kind of work a step
  }
}

TEST_CASE("a second launch of narrower blocks than the first", "[steps]") {
  // viewer/testdata/synthetic_1024_sequential.json: 4 blocks of 256, then one of 4.
  const Trace t = load_trace(test::repo("viewer/testdata/synthetic_1024_sequential.json"));
  REQUIRE(t.launches.size() == 2);
  REQUIRE(t.launches[1].block < t.launches[0].block);
  check_partition(t, index_steps(t));
}

TEST_CASE("every committed trace's steps partition its events", "[steps]") {
  for (const char* name : {"01_interleaved_divergent.sim.json", "04_first_add_during_load.sim.json",
                           "07_multiple_elements_per_thread.sim.json",
                           "09_block_two_stage.sim.json", "10_multi_block_two_kernel.sim.json",
                           "12_single_pass.sim.json", "broken/03_missing_barrier.sim.json"}) {
    INFO(name);
    const Trace t = test::asset(name);
    check_partition(t, index_steps(t));
  }
}
