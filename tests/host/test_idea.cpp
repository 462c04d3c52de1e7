// A lesson's idea as the grade reads it from a trace (common/host/idea.h): the figures of block 0
// taken from the committed simulator traces of lessons 01-03 and 08, the judge on them and on
// figures made to miss each check, and the handed-back text's format.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/host/grade_record.h"
#include "common/host/idea.h"
#include "common/host/results.h"
#include "common/trace/trace_loader.h"

using namespace rl;

namespace {

IdeaFigures committed(const std::string& file) { return committed_trace_figures("traces/" + file); }

// Figures of a 256-thread block's tree: a load level, then `levels` levels that halve the working
// threads, each closed by a barrier, no shuffle, no conflict.
IdeaFigures halving_tree(int levels) {
  IdeaFigures f;
  f.block = 256;
  f.levels.push_back({.level = 0, .line = 14, .threads = 256, .barriers = 1, .barrier_line = 15});
  for (int k = 1; k <= levels; ++k) {
    const int threads = std::max(1, 256 >> k);
    f.levels.push_back({.level = k,
                        .line = 21,
                        .threads = threads,
                        .divergent = threads < 32 ? 1 : 0,
                        .adds = threads,
                        .shared = 3,
                        .shared_line = 21,
                        .barriers = 1,
                        .barrier_line = 22});
  }
  return f;
}

bool fails_with(const IdeaFigures& f, const Idea& idea, const std::string& phrase) {
  const auto why = idea_judged(f, idea);
  INFO((why ? *why : std::string("(passes)")));
  return why && why->find(phrase) != std::string::npos;
}

}  // namespace

TEST_CASE("a trace's figures: lesson 03's block of 256, level by level", "[host][idea]") {
  const IdeaFigures f = committed("03_sequential_addressing.b256.sim.json");
  CHECK(f.block == 256);
  REQUIRE(f.levels.size() == 9);  // the load, then log2(256) levels
  CHECK(f.levels[0].threads == 256);
  CHECK(f.levels[0].adds == 0);
  for (int k = 1; k <= 8; ++k) {
    const IdeaLevel& l = f.levels[static_cast<std::size_t>(k)];
    INFO("level " << k);
    CHECK(l.threads == 256 >> k);
    CHECK(l.warps == std::max(1, (256 >> k) / 32));  // threads 0 .. 256 >> k, contiguous
    CHECK(l.adds == 256 >> k);
    CHECK(l.conflict == 1);  // consecutive words: one per bank
    CHECK(l.barriers == 1);  // every level closed by the loop's __syncthreads
    CHECK(l.divergent == (l.threads < 32 ? 1 : 0));
  }
}

TEST_CASE("each rung's idea passes its own trace and fails the rung before", "[host][idea]") {
  const IdeaFigures l01 = committed("01_interleaved_divergent.b256.sim.json");
  const IdeaFigures l02 = committed("02_interleaved_strided.b256.sim.json");
  const IdeaFigures l03 = committed("03_sequential_addressing.b256.sim.json");
  const Idea tree{.tree = true};
  const Idea whole_warps{.tree = true, .whole_warps = true};
  const Idea no_conflicts{.tree = true, .whole_warps = true, .no_bank_conflicts = true};
  CHECK_FALSE(idea_judged(l01, tree));
  CHECK_FALSE(idea_judged(l02, whole_warps));
  CHECK_FALSE(idea_judged(l03, no_conflicts));
  // lesson 01's adders, every second thread, leave idle lanes in all 8 warps
  CHECK(fails_with(l01, whole_warps, "level 1 (line 25): 128 threads work, but 8 warps have idle"));
  // lesson 02's lane tid reads word 2 * stride * tid: 2-way at the first level
  CHECK(fails_with(l02, no_conflicts,
                   "level 1 (line 34): a warp's shared-memory access has a 2-way"));
  // lesson 03 still waits for the whole block where only warp 0 works, and shuffles nothing
  CHECK(fails_with(l03, {.last_warp_unsynced = true}, "level 3 (line 21): only 32 threads work"));
  CHECK(fails_with(l03, {.last_warp_shuffles = true}, "0 levels add through shuffles"));
  CHECK(fails_with(l03, {.max_barriers = 1}, "the block passes 9 __syncthreads"));
  CHECK(fails_with(l03, {.max_barriers = 0}, "where none is needed"));
  // lesson 03 at n = 512: 2 blocks of 256, one input a thread, block 0 reads inputs 0..255 only
  CHECK(l03.grid == 2);
  CHECK(l03.farthest_input == 255);
  CHECK(fails_with(l03, {.loads_past_reach = true},
                   "read no input at or past the grid's reach (2 blocks x 256 threads = 512), the "
                   "farthest it read being input 255"));
}

TEST_CASE("the last warp through shuffles: lesson 08's trace has five levels of them",
          "[host][idea]") {
  const IdeaFigures l08 = committed("08_warp_shuffle.sim.json");
  int shuffle_levels = 0;
  for (const IdeaLevel& l : l08.levels) shuffle_levels += l.shuffles > 0;
  CHECK(shuffle_levels == 5);
  CHECK_FALSE(idea_judged(l08, {.last_warp_shuffles = true}));
}

TEST_CASE("the last launch: lesson 10's finishing kernel, one block of 1024", "[host][idea]") {
  std::ifstream in(committed_asset_path("traces/10_multi_block_two_kernel.sim.json"));
  std::stringstream text;
  text << in.rdbuf();
  const Trace t = parse_trace(text.str(), "lesson 10's trace");
  REQUIRE(t.launches.size() == 2);
  const IdeaFigures first = idea_figures_of(t), last = idea_figures_of(t, true);
  CHECK(first.block == 32);   // block_partials, as the trace was recorded (--block 32)
  CHECK(last.block == 1024);  // sum_partials
  CHECK(last.grid == 1);
  CHECK(last != first);
  // block_sum's one barrier: enough for one block, more than a one-warp finish may have
  CHECK_FALSE(idea_judged(last, {.last_warp_shuffles = true, .max_barriers = 1}));
  CHECK(fails_with(last, {.max_barriers = 0, .last_launch = true},
                   "the trace of block 0 of the last launch: the block passes 1 __syncthreads"));
}

TEST_CASE("the judge on figures that miss one check each", "[host][idea]") {
  CHECK_FALSE(idea_judged(halving_tree(8), {.tree = true}));
  CHECK_FALSE(
      idea_judged(halving_tree(9), {.tree = true}));  // one level more: an add while loading
  CHECK(fails_with(halving_tree(10), {.tree = true}, "meet in 10 levels of additions"));
  // one thread adding the block's values one after another
  IdeaFigures serial;
  serial.block = 256;
  for (int k = 0; k < 256; ++k)
    serial.levels.push_back({.level = k, .line = 24, .threads = 1, .adds = k > 0});
  CHECK(fails_with(serial, {.tree = true}, "its 256 values meet in 255 levels"));
  // a block that is not a power of two: 192 values need ceil(log2(192)) = 8 levels, not 7
  IdeaFigures any_block = halving_tree(8);
  any_block.block = 192;
  CHECK_FALSE(idea_judged(any_block, {.tree = true}));
  any_block = halving_tree(10);
  any_block.block = 192;
  CHECK(fails_with(any_block, {.tree = true}, "its 192 values meet in 10 levels"));
  CHECK(fails_with(any_block, {.tree = true}, "a tree needs 8"));

  IdeaFigures unsynced = halving_tree(8);
  for (IdeaLevel& l : unsynced.levels)
    if (l.threads <= 32) l.barriers = 0;
  CHECK_FALSE(idea_judged(unsynced, {.last_warp_unsynced = true}));
  CHECK(fails_with(halving_tree(8), {.last_warp_unsynced = true}, "__syncthreads (line 22)"));

  // the last warp narrowing: 32, 16, 8, 4, 2, 1 adders; lesson 05's own tail keeps all 32 lanes
  CHECK_FALSE(idea_judged(halving_tree(8), {.last_warp_narrows = true}));
  IdeaFigures all_lanes = halving_tree(8);
  for (IdeaLevel& l : all_lanes.levels)
    if (l.threads < 32) l.threads = 32, l.divergent = 0;
  CHECK(fails_with(all_lanes, {.last_warp_narrows = true},
                   "level 4 (line 21): 32 threads add, where the level before had 32"));

  IdeaFigures conflicted = halving_tree(8);
  conflicted.levels[4].conflict = 8;
  conflicted.levels[4].conflict_line = 30;
  CHECK(fails_with(conflicted, {.no_bank_conflicts = true}, "level 4 (line 30)"));
  CHECK(fails_with(conflicted, {.no_bank_conflicts = true}, "8-way bank conflict"));

  // lesson 04's halves at n = 2048: 4 blocks of 256, block 0 reads 0..255 and 1024..1279; the
  // same grid with lesson 04's own loads, one block apart, reads 0..511
  IdeaFigures halves = halving_tree(8);
  halves.grid = 4;
  halves.farthest_input = 1279;
  CHECK_FALSE(idea_judged(halves, {.loads_past_reach = true}));
  IdeaFigures one_block_apart = halves;
  one_block_apart.farthest_input = 511;
  CHECK(fails_with(one_block_apart, {.loads_past_reach = true},
                   "= 1024), the farthest it read "
                   "being input 511"));

  // The ticket's own order, not fences: counted over the whole run, named by the lowest line.
  IdeaFigures ticket = halves;
  CHECK_FALSE(idea_judged(ticket, {.no_fences = true}));
  ticket.fences = 6;
  ticket.fence_line = 88;
  CHECK(fails_with(ticket, {.no_fences = true}, "called __threadfence() 6 times (line 88)"));
  CHECK_FALSE(idea_judged(ticket, {.loads_past_reach = true}));  // counted, judged only if asked

  // Loads ahead: thread 0's loads before its first addition, at least the plan's count.
  IdeaFigures ahead = halves;
  ahead.loads_before_add = 2;
  CHECK_FALSE(idea_judged(ahead, {.loads_ahead = 2}));
  ahead.loads_before_add = 1;
  CHECK(fails_with(ahead, {.loads_ahead = 2},
                   "thread 0 of block 0 issued 1 load before its first addition, where the "
                   "variant has 2"));
  ahead.loads_before_add = -1;
  CHECK(fails_with(ahead, {.loads_ahead = 2}, "thread 0 of block 0 added nothing it loaded"));
  CHECK_FALSE(idea_judged(ahead, {.no_fences = true}));  // counted, judged only if asked

  // A cluster's exchange in distributed shared memory: one map a block at the least, in two.
  IdeaFigures clusters = halves;
  clusters.grid = 4;
  clusters.remote_maps = 2;
  CHECK_FALSE(idea_judged(clusters, {.cluster_shares = true}));
  clusters.remote_maps = 1;
  CHECK(fails_with(clusters, {.cluster_shares = true},
                   "its 4 blocks mapped another block's shared memory 1 time"));
  clusters.remote_maps = 0;
  CHECK(fails_with(clusters, {.cluster_shares = true}, "0 times (cluster.map_shared_rank)"));

  IdeaFigures empty;
  empty.block = 256;
  empty.grid = 1;
  CHECK(fails_with(empty, {.tree = true}, "no level of work was recorded"));
  CHECK_FALSE(idea_judged(empty, {}));  // a plan without an idea is never judged on one
}

TEST_CASE("the idea's figures as handed back: the text and its format", "[host][idea]") {
  const IdeaFigures f = committed("02_interleaved_strided.b256.sim.json");
  const auto back = parse_idea_figures(to_text(f));
  REQUIRE(back);
  CHECK(*back == f);
  CHECK(back->loads_before_add == -1);  // a committed trace does not say
  CHECK(parse_idea_figures("256,4,1279,0,0,-1,0 1,2,3,4,5,6,7,8,9,10,11,12,13"));
  const auto none_read = parse_idea_figures("256,4,-1,0,0,-1,0");  // a block that read no input
  REQUIRE(none_read);
  CHECK(none_read->farthest_input == -1);
  const auto fenced =
      parse_idea_figures("256,4,1279,528,71,-1,0");  // 528 fences, the lowest line 71
  REQUIRE(fenced);
  CHECK(fenced->fences == 528);
  CHECK(fenced->fence_line == 71);
  const auto ahead = parse_idea_figures("256,1,2047,0,0,2,0");  // 2 loads before the first add
  REQUIRE(ahead);
  CHECK(ahead->loads_before_add == 2);
  const auto mapped = parse_idea_figures("256,4,1279,0,0,-1,3");  // 3 remote shared-memory maps
  REQUIRE(mapped);
  CHECK(mapped->remote_maps == 3);
  IdeaFigures counted = f;
  counted.loads_before_add = 8;
  counted.remote_maps = 5;
  CHECK(parse_idea_figures(to_text(counted)) == counted);
  for (const char* bad : {"",
                          "ok",
                          "0",
                          "2048",
                          "256",
                          "256,4",
                          "0,4,1,0,0,-1,0",
                          "256,0,1,0,0,-1,0",
                          "256,4,-2,0,0,-1,0",
                          "256,4,x,0,0,-1,0",
                          "256,4,1",
                          "256,4,1,0",
                          "256,4,1,0,0",
                          "256,4,1,0,0,",
                          "256,4,1,0,0,-1",
                          "256,4,1,0,0,-1,",
                          "256,4,1,0,0,-1,-1",
                          "256,4,1,0,0,2,x",
                          "256,4,1,0,0,-2,0",
                          "256,4,1,0,0,-12,0",
                          "256,4,1,0,0,x,0",
                          "256,4,-1",
                          "256,4,1,-1,0,-1,0",
                          "256,4,1,0,x,-1,0",
                          "256,4,1,0,0,-1,0 1,2,3",
                          "256,4,1,0,0,-1,0 1,2,3,4,5,6,7,8,9,10,11,12",
                          "256,4,1,0,0,-1,0 1,2,3,4,5,6,7,8,9,10,11,12,13,14",
                          "256,4,1,0,0,-1,0 -1,2,3,4,5,6,7,8,9,10,11,12,13",
                          "256,4,1,0,0,-1,0  1,2,3,4,5,6,7,8,9,10,11,12,13",
                          "256,4,1,0,0,-1,0 1,2,3,4,5,6,7,8,9,10,11,12,13 "}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_idea_figures(bad));
  }
  // in a handed-back file: one idea line, and nothing in its place that is not figures
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("reducelab-idea-" + std::to_string(::getpid()) + ".outputs"))
                               .string();
  const auto recorded = [&](const std::string& text) {
    std::ofstream(path) << text;
    return read_recorded(path, 1 << 20);
  };
  const Recorded good = recorded("backend sim\nidea " + to_text(f) + "\nend exit 0\n");
  CHECK(good.malformed.empty());
  REQUIRE(good.idea);
  CHECK(*good.idea == f);
  CHECK_FALSE(recorded("backend sim\nidea ok\nend exit 0\n").malformed.empty());
  CHECK_FALSE(
      recorded("backend sim\nidea " + to_text(f) + "\nidea " + to_text(f) + "\nend exit 0\n")
          .malformed.empty());
  std::remove(path.c_str());
}
