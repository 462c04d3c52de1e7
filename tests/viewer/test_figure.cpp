// The step figure of one block, built from the trace: what each row holds, who wrote it, the
// arrows of each addition, bank conflicts, stale reads and the first difference, without pixels.
#include <catch2/catch.hpp>

#include "common/trace/stale_reads.h"
#include "viewer/block_figure.h"
#include "viewer/steps.h"
#include "viewer/trace_compare.h"
#include "viewer_test_support.h"

using namespace rl;
using namespace rl::viewer;
using nlohmann::json;

TEST_CASE("lesson 03, step 2: the loads' row, then threads 0-15 add slot t + 16 into slot t",
          "[figure]") {
  const Trace t = test::asset("03_sequential_addressing.sim.json");
  const StepIndex idx = index_steps(t);
  const BlockFigure f = build_figure(t, idx, 1, {0, 0, 32});
  REQUIRE(f.launch == 0);
  REQUIRE(f.block_dim == 32);
  REQUIRE(f.shared_size == 32);
  REQUIRE(f.register_size == 0);
  REQUIRE(f.column_count == 32);
  REQUIRE(f.rows.size() == 2);
  REQUIRE(f.rows[0].reads == "input[0..31]");
  REQUIRE(f.rows[1].current);
  REQUIRE(f.rows[1].number == 2);
  REQUIRE(f.rows[1].action == "16 threads add");
  for (int c = 0; c < 32; ++c) {
    const FigureCell& load = f.rows[0].cells[static_cast<std::size_t>(c)];
    REQUIRE(load.written);
    REQUIRE(load.value == t.input[static_cast<std::size_t>(c)]);
    const FigureCell& cell = f.rows[1].cells[static_cast<std::size_t>(c)];
    REQUIRE(cell.held);
    REQUIRE(cell.written == (c < 16));
    REQUIRE(cell.conflict_ways == 0);
    if (c < 16) {
      REQUIRE(cell.thread == c);
      REQUIRE(cell.value == Approx(t.input[static_cast<std::size_t>(c)] +
                                   t.input[static_cast<std::size_t>(c + 16)]));
    } else {
      REQUIRE(cell.value == t.input[static_cast<std::size_t>(c)]);
    }
    REQUIRE(f.active[static_cast<std::size_t>(c)] == (c < 16));
  }
  REQUIRE(f.rows[1].arrows.size() == 32);
  for (const FigureArrow& a : f.rows[1].arrows) {
    REQUIRE(a.from_row == 0);
    REQUIRE(a.from_index == (a.carry ? a.to_index : a.to_index + 16));
    REQUIRE(a.thread == a.to_index);
    REQUIRE(!a.stale);
  }
  // The last step of launch 0 stores the block's total to scratch[0], under slot 0.
  const BlockFigure last = build_figure(t, idx, 6, {0, 0, 32});
  REQUIRE(last.rows.back().outs.size() == 1);
  REQUIRE(last.rows.back().outs[0].target == "scratch[0]");
  REQUIRE(last.rows.back().outs[0].from_index == 0);
}

TEST_CASE("lesson 02 at block 256: its strided writes collide two to a bank", "[figure]") {
  const Trace t = test::asset("02_interleaved_strided.b256.sim.json");
  const StepIndex idx = index_steps(t);
  REQUIRE(idx.steps[1].worst_conflict == 2);
  const BlockFigure f = build_figure(t, idx, 1, {0, 0, 32});
  REQUIRE(f.column_count == 32);
  REQUIRE(f.shared_size == 256);
  for (int c = 0; c < 32; ++c)
    REQUIRE(f.rows[1].cells[static_cast<std::size_t>(c)].conflict_ways == 2);
  // Further right: the window of a later warp.
  const BlockFigure g = build_figure(t, idx, 1, {0, 64, 32});
  REQUIRE(g.first_column == 64);
  REQUIRE(g.rows[1].cells[0].thread == 32);  // slot 64 is thread 32's at stride 1
}

TEST_CASE("lesson 08: register rows for the shuffles, a shared row for the store between",
          "[figure]") {
  const Trace t = test::asset("08_warp_shuffle.sim.json");
  const StepIndex idx = index_steps(t);
  const BlockFigure f = build_figure(t, idx, idx.count() - 1, {0, 0, 32});
  REQUIRE(f.register_size == 32);
  REQUIRE(f.shared_size == 32);
  REQUIRE(f.rows[0].array == ArrayKind::reg);
  REQUIRE(f.rows[2].array == ArrayKind::shared);
  int shuffles = 0;
  for (const FigureRow& r : f.rows) {
    for (const FigureArrow& a : r.arrows) shuffles += a.shuffle ? 1 : 0;
  }
  REQUIRE(shuffles > 0);
  REQUIRE(f.rows.back().outs.size() == 1);
  REQUIRE(f.rows.back().outs[0].target == "output[0]");
}

TEST_CASE("the missing barrier: stale reads marked on the arrows and cells of their steps",
          "[figure]") {
  const Trace bad = test::asset("broken/03_missing_barrier.sim.json");
  const StepIndex idx = index_steps(bad);
  const std::vector<StaleRead> stale = find_stale_reads(bad);
  REQUIRE(!stale.empty());
  const StaleRead& r = stale.front();
  FigureMarks marks;
  marks.stale = &stale;
  const int step = idx.event_step[static_cast<std::size_t>(r.read_event)];
  const BlockFigure f = build_figure(bad, idx, step, {r.block, 0, 32}, marks);
  bool arrow = false;
  for (const FigureArrow& a : f.rows.back().arrows)
    arrow = arrow || (a.stale && a.event == r.read_event && a.from_index == r.slot);
  REQUIRE(arrow);
  // The same block of the solution has none.
  const Trace good = test::asset("03_sequential_addressing.sim.json");
  const std::vector<StaleRead> none = find_stale_reads(good);
  REQUIRE(none.empty());
}

TEST_CASE("hand-made traces: a race is marked, a pair a barrier separates is not",
          "[figure][stale]") {
  auto trace_of = [](const json& events) {
    json doc = json::parse(
        std::ifstream(std::string(RL_REPO_ROOT) + "/tests/trace/data/interleaved8.json"));
    doc["launches"][0]["block"] = 64;
    doc["launches"][0]["grid"] = 1;
    doc["barriers"] = true;
    doc["capacity"] = 1000;
    doc["events"] = events;
    return parse_trace(doc.dump(), "race.json");
  };
  auto load = [](int thread, int slot, int input) {
    return json{0,     "load",    0,  thread, "shared", slot,      "input",
                input, input + 1, "", -1,     0,        input + 1, 20};
  };
  auto add = [](int thread, int dst, int b) {
    return json{0, "combine", 0, thread, "shared", dst, "shared", dst, 1, "shared", b, 2, 3, 27};
  };
  const json barrier = {0, "barrier", 0, -1, "", -1, "", -1, 0, "", -1, 0, 0, 21};
  const Trace race = trace_of(json::array(
      {load(37, 37, 1), load(5, 5, 0), barrier, add(5, 5, 37), add(37, 37, 5), barrier}));
  const Trace safe = trace_of(json::array(
      {load(37, 37, 1), load(5, 5, 0), barrier, add(5, 5, 37), barrier, add(37, 37, 5), barrier}));
  const std::vector<StaleRead> found = find_stale_reads(race), clean = find_stale_reads(safe);
  REQUIRE(found.size() == 2);
  REQUIRE(clean.empty());
  const StepIndex idx = index_steps(race);
  FigureMarks marks;
  marks.stale = &found;
  const BlockFigure f = build_figure(race, idx, idx.count() - 1, {0, 0, 64}, marks);
  REQUIRE(f.rows.back().cells[5].stale);
  REQUIRE(f.rows.back().cells[37].stale);
  const StepIndex sidx = index_steps(safe);
  FigureMarks none;
  none.stale = &clean;
  const BlockFigure g = build_figure(safe, sidx, sidx.count() - 1, {0, 0, 64}, none);
  for (const FigureRow& row : g.rows) {
    for (const FigureCell& c : row.cells) REQUIRE(!c.stale);
  }
}

TEST_CASE("the first difference is marked on its cell", "[figure][compare]") {
  const Trace bad = test::asset("broken/03_missing_barrier.sim.json");
  const Trace good = test::asset("03_sequential_addressing.sim.json");
  const TraceComparison c = compare_traces(bad, good);
  REQUIRE(c.first.found);
  const int e = c.first.event[0];
  const StepIndex idx = index_steps(bad);
  FigureMarks marks;
  marks.differs_event = e;
  const Event& ev = bad.events[static_cast<std::size_t>(e)];
  const BlockFigure f =
      build_figure(bad, idx, idx.event_step[static_cast<std::size_t>(e)], {ev.block, 0, 32}, marks);
  REQUIRE(f.rows.back().cells[static_cast<std::size_t>(ev.dst.index)].differs);
}

TEST_CASE("a block that does nothing at the current step says so", "[figure]") {
  const Trace t = test::asset("03_sequential_addressing.sim.json");
  const StepIndex idx = index_steps(t);
  // Step 7 (launch 0's store): only block 0's thread 0 and block 1's thread 0 work; both blocks
  // have a row.
  const BlockFigure f = build_figure(t, idx, 6, {1, 0, 32});
  REQUIRE(!f.current_idle);
  // Launch 1 has one block: a focus past it is clamped.
  const BlockFigure g = build_figure(t, idx, 8, {5, 0, 32});
  REQUIRE(g.block == 0);
}
