#include <catch2/catch.hpp>

#include "viewer/cell_text.h"
#include "viewer/counter_layout.h"
#include "viewer/counter_text.h"
#include "viewer_test_support.h"

using namespace rl::viewer;

namespace {

const ProfileFile& fixture() {
  static const ProfileFile f =
      load_profile(test::repo("viewer/testdata/fixture-h100-profile.json"));
  return f;
}

bool has(const std::vector<std::string>& phrases, const std::string& text) {
  for (const auto& p : phrases)
    if (p.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a trace predicts its shared-memory passes and working lanes, launch by launch",
          "[counters]") {
  // Lesson 02 at block 256, 2 blocks in launch 0. Worked by hand from the kernel: per block, the
  // load stores 8 warps (1 pass each); level s (1, 2, ..., 128) has 128/s threads at 2*s*tid,
  // conflicting 2-, 4-, 8-, 8-, 8-, 4-, 2-, 1-way on 4, 2, 1, 1, 1, 1, 1, 1 warps, two loads and a
  // store each; thread 0 then loads partial[0] once.
  const rl::Trace t = test::asset("02_interleaved_strided.b256.sim.json");
  const auto p = predict_launches(t, index_steps(t));
  REQUIRE(p.size() == 2);
  REQUIRE(p[0].load_accesses == 2 * (2 * (4 + 2 + 1 + 1 + 1 + 1 + 1 + 1) + 1));
  REQUIRE(p[0].load_passes == 2 * (2 * (4 * 2 + 2 * 4 + 8 + 8 + 8 + 4 + 2 + 1) + 1));
  REQUIRE(p[0].store_accesses == 2 * (8 + 4 + 2 + 1 + 1 + 1 + 1 + 1 + 1));
  REQUIRE(p[0].store_passes == 2 * (8 + 4 * 2 + 2 * 4 + 8 + 8 + 8 + 4 + 2 + 1));
  // Steps: the load (256 lanes in 8 warps), the levels (128, 64, 32 lanes in full warps, then 16,
  // 8, 4, 2, 1 in one warp each), the store of partial[0] (1 lane).
  REQUIRE(p[0].lanes == 2 * (256 + 128 + 64 + 32 + 16 + 8 + 4 + 2 + 1 + 1));
  REQUIRE(p[0].warps == 2 * (8 + 4 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1));
  // Launch 1 is one block running the same loop over 2 values and 254 zeros: the same accesses as
  // each block of launch 0, though its values' tree is shallower (steps, not data-flow levels), and
  // its first line stores loads and zeros in one instruction.
  REQUIRE(p[1].load_accesses == p[0].load_accesses / 2);
  REQUIRE(p[1].load_passes == p[0].load_passes / 2);
  REQUIRE(p[1].store_accesses == p[0].store_accesses / 2);
  REQUIRE(p[1].store_passes == p[0].store_passes / 2);
  // Lesson 03 at the same block: no conflict at all.
  const rl::Trace t3 = test::asset("03_sequential_addressing.b256.sim.json");
  const auto p3 = predict_launches(t3, index_steps(t3));
  REQUIRE(p3[0].load_passes == p3[0].load_accesses);
  REQUIRE(p3[0].store_passes == p3[0].store_accesses);
}

TEST_CASE("counted passes per warp access: wavefronts over those without a conflict",
          "[counters]") {
  // 02's stores on the H100: 294,912 requests x 0.763889 = 225,280 wavefronts, 143,360 of them
  // conflicts: 81,920 accesses in 55 passes per 20, as the trace predicts (above).
  const ProfiledLaunch& l = fixture().calls[0].launches[0];
  const KernelCounters& c = l.counters;
  REQUIRE(counted_passes(c.shared_st_requests, c.shared_st_wavefronts_per_request,
                         c.shared_st_bank_conflicts) == Approx(55.0 / 20).epsilon(1e-4));
  REQUIRE(counted_passes(c.shared_ld_requests, c.shared_ld_wavefronts_per_request,
                         c.shared_ld_bank_conflicts) == Approx(394933.0 / 102400).epsilon(1e-4));
  REQUIRE(counted_passes(1000.0, 1.0, 0.0) == 1.0);
  REQUIRE(counted_passes(0.0, 0.0, 0.0) < 0);  // nothing accessed
  REQUIRE(counted_passes(std::nullopt, 1.0, 0.0) < 0);
}

TEST_CASE("the panel beside a trace puts the prediction by the counter", "[counters]") {
  const rl::Trace t = test::asset("02_interleaved_strided.b256.sim.json");
  const auto predicted = predict_launches(t, index_steps(t));
  const ProfiledCall& call = *nearest_call(fixture(), 2, "", static_cast<double>(t.n), t.block);
  const CounterPanel p = counter_panel(fixture(), call, 0, t, predicted[0]);
  REQUIRE(has(p.title, "Measured on NVIDIA H100 80GB HBM3"));
  REQUIRE(has(p.title, "n = 2^20, block 256"));
  REQUIRE(has(p.title, "launch 0 of 3: interleaved_strided<NoTrace>, grid 4,096"));
  REQUIRE(p.caveat.empty());  // the same block
  REQUIRE(p.trace_heading == "trace (sim)");
  REQUIRE(p.rows.size() == 3);
  REQUIRE(p.rows[0].trace == "3.80");  // 190 / 50
  REQUIRE(p.rows[0].counted == "3.86");
  REQUIRE(p.rows[1].trace == "2.75");  // 110 / 40
  REQUIRE(p.rows[1].counted == "2.75");
  REQUIRE(p.rows[2].trace == "24.4");  // 1024 / 42
  REQUIRE(p.rows[2].counted == "31.7");
  REQUIRE(p.rows[0].tip.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld") !=
          std::string::npos);
  REQUIRE(has(p.facts, "10.85 \xC2\xB5s"));
  REQUIRE(has(p.facts, "DRAM 11.6% of peak (4.20 MB read)"));
  REQUIRE(has(p.facts, "occupancy 84.1% (theoretical 100%)"));
  REQUIRE(has(p.facts, "limited by warps: 8 blocks/SM"));
  REQUIRE(has(p.stalls, "top stalls (warps waiting per issue): short scoreboard 5.87"));
  // Launch 1 of the trace beside launch 1 of the call; a launch past the call's: its last.
  REQUIRE(has(counter_panel(fixture(), call, 1, t, predicted[1]).title, "launch 1 of 3"));
  const CounterPanel past = counter_panel(fixture(), call, 5, t, predicted[1]);
  REQUIRE(has(past.title, "launch 2 of 3"));
  REQUIRE(!past.caveat.empty());

  // Lesson 12's trace is of block 32, the profile's 1024: said; warps and registers tie.
  const rl::Trace t11 = test::asset("12_single_pass.sim.json");
  const CounterPanel p11 = counter_panel(fixture(), *nearest_call(fixture(), 12, "", 64, 32), 0,
                                         t11, predict_launches(t11, index_steps(t11))[0]);
  REQUIRE(p11.caveat.find("block is 32, the profiled 1024") != std::string::npos);
  REQUIRE(p11.rows[0].trace == "none");  // one warp: no shared memory
  REQUIRE(has(p11.facts, "limited by warps: 2 blocks/SM (registers too)"));

  const CounterPanel none =
      no_counters_panel(test::asset("03_sequential_addressing.sim.json"), {fixture()});
  REQUIRE(none.rows.empty());
  REQUIRE(has(none.title, "No hardware counters of 03 sequential_addressing"));
}

TEST_CASE("a throughput point's counters: one paragraph per launch, the profiled n said",
          "[counters]") {
  const ProfiledCall& call = fixture().calls[0];
  const auto same = point_counter_text(fixture(), call, 1 << 20);
  REQUIRE(same.size() == 4);  // the title, then launches 0, 1, 2
  REQUIRE(!has(same[0], "nearest"));
  REQUIRE(same[1][0] == "launch 0: interleaved_strided<NoTrace>, grid 4,096");
  REQUIRE(has(same[1], "top stall: short scoreboard (5.87 warps waiting per issue)"));
  REQUIRE(has(same[3], "DRAM 0.0% of peak (3.33 kB read)"));
  const auto other = point_counter_text(fixture(), call, 1 << 24);
  REQUIRE(has(other[0], "the profiled size nearest this point's 2^24"));
}

TEST_CASE("the counter panel's lines stay inside its width and below one another", "[counters]") {
  const rl::Trace t = test::asset("02_interleaved_strided.b256.sim.json");
  const CounterPanel p =
      counter_panel(fixture(), fixture().calls[0], 0, t, predict_launches(t, index_steps(t))[0]);
  for (float width : {kMinPanelW, 505.6f, 628.f, 1264.f}) {
    const PanelLayout l = layout_counter_panel(p, width);
    REQUIRE(l.height == Approx(kPanelLineH * static_cast<float>(l.lines.size())));
    for (std::size_t i = 0; i < l.lines.size(); ++i) {
      if (i > 0) REQUIRE(l.lines[i].y >= l.lines[i - 1].y + kPanelLineH);
      float end = 0;
      for (const PanelCell& c : l.lines[i].cells) {
        REQUIRE(c.x >= end);  // cells of a line do not overlap
        end = c.x + text_width(c.text);
        REQUIRE(end <= width);
      }
    }
  }
  for (float width : {600.f, 1264.f}) {
    for (const TextLine& line :
         layout_paragraphs(point_counter_text(fixture(), fixture().calls[0], 1 << 24), width))
      REQUIRE(text_width(line.text) <= width);
  }
  REQUIRE(!place_counters(628).beside);  // two traces side by side at 1280 px: above the source
  REQUIRE(place_counters(1264).beside);  // one trace: beside it, the source keeps 60%
  REQUIRE(place_counters(1264).source_w + place_counters(1264).panel_w <= 1264);
  REQUIRE(place_counters(1264).panel_w >= kMinPanelW);
}
