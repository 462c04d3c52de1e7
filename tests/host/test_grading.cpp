// The grader's parts that need no kernel: the case list, the verdict on one result, the hints file,
// and the watchdog that turns a hang or a crash into a report.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <algorithm>
#include <bit>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "common/host/grade_record.h"
#include "common/host/grading.h"
#include "common/host/hints.h"
#include "common/host/input.h"
#include "common/host/reference.h"
#include "common/host/watchdog.h"

using namespace rl;

TEST_CASE("graded cases cover the sizes the standards name", "[host][grading]") {
  const auto cases = graded_cases(false);
  auto has = [&](std::uint64_t n, unsigned block) {
    for (const auto& c : cases)
      if (c.n == n && c.block == block) return true;
    return false;
  };
  CHECK(has(0, 256));
  CHECK(has(1, 256));
  CHECK(has(257, 256));   // one element past a block
  CHECK(has(1000, 256));  // not a power of two
  CHECK(has((1u << 20), 256));
  CHECK(has(1025, 1024));  // one past a block of every size
  CHECK(has(33, 32));
  CHECK_FALSE(has((1u << 24) + 3, 256));
  CHECK(graded_cases(true).size() > cases.size());
  CHECK(describe(cases.front()) == "n=0 block=256 seed=1 uniform");
}

TEST_CASE("every graded size, the largest included, has an exact spike case", "[host][grading]") {
  for (bool huge : {false, true}) {
    const auto cases = graded_cases(huge);
    for (std::uint64_t n : graded_sizes(huge)) {
      CAPTURE(huge, n);
      const auto spikes = std::count_if(cases.begin(), cases.end(), [&](const GradeCase& c) {
        return c.n == n && c.distribution == Distribution::spikes && c.exact;
      });
      CHECK(spikes == 1);
      // Integer data where it is exact (sums below 2^24), none beyond.
      const auto ints = std::count_if(cases.begin(), cases.end(), [&](const GradeCase& c) {
        return c.n == n && c.distribution == Distribution::integers;
      });
      CHECK(ints == (n <= (1u << 20) ? 1 : 0));
    }
  }
}

TEST_CASE("a verdict names what is wrong with a result", "[host][grading]") {
  CaseResult r;
  r.check.reference.sum = 10.0;
  r.check.tolerance = 1e-3;
  GradeCase c;
  r.check.got = 10.0, r.check.verified = true;
  CHECK_FALSE(failure_of(r, c));
  r.check.got = 7.5, r.check.verified = false;
  REQUIRE(failure_of(r, c));
  CHECK_THAT(*failure_of(r, c), Catch::Contains("expected 10") && Catch::Contains("got 7.5"));
  // The harness's poison (all bits set) coming back means the kernel never wrote its output.
  r.check.got = static_cast<double>(std::bit_cast<float>(0xFFFFFFFFu));
  CHECK_THAT(*failure_of(r, c), Catch::Contains("never written"));
  // Integer data must be exact even where the tolerance would allow an error.
  c.exact = true;
  r.check.got = 10.0009, r.check.verified = true;
  CHECK_THAT(*failure_of(r, c), Catch::Contains("exactly"));
}

TEST_CASE("a failed result gets the class of bug it shows", "[host][grading]") {
  CaseResult r;
  r.check.reference.sum = 4096.0;
  r.check.tolerance = 2.0;
  GradeCase uniform{1u << 20, 256, 1, Distribution::uniform, false};
  // Poison back: never written, whatever the data.
  r.check.got = static_cast<double>(std::bit_cast<float>(0xFFFFFFFFu));
  CHECK(diagnose(r, uniform)->bug == BugClass::never_written);
  // Outside the bound on random data: input lost or counted twice.
  r.check.got = 4000.0, r.check.verified = false;
  CHECK(diagnose(r, uniform)->bug == BugClass::lost_input);
  // Within the bound: passes, though 1 off (what the bound cannot see).
  r.check.got = 4095.0, r.check.verified = true;
  CHECK_FALSE(diagnose(r, uniform));
  // The same 1 on spikes: a block's share lost, and by how much.
  const GradeCase spikes{1u << 20, 256, 1, Distribution::spikes, true};
  r.check.reference.exact = true;
  const auto lost = diagnose(r, spikes);
  REQUIRE(lost);
  CHECK(lost->bug == BugClass::lost_input);
  CHECK_THAT(lost->why, Catch::Contains("expected exactly 4096") && Catch::Contains("got 4095") &&
                            Catch::Contains("short by 1") &&
                            Catch::Contains("skipped or added twice"));
  r.check.got = 4097.0;
  CHECK_THAT(diagnose(r, spikes)->why, Catch::Contains("over by 1"));
  // On integer data, right within rounding elsewhere: wrong on integer data only.
  const GradeCase ints{1000, 256, 1, Distribution::integers, true};
  r.check.got = 4093.0;
  const auto integer = diagnose(r, ints);
  REQUIRE(integer);
  CHECK(integer->bug == BugClass::integer_only);
  CHECK_THAT(integer->why, Catch::Contains("(short by 3)"));
  r.check.got = 4096.0;
  CHECK_FALSE(diagnose(r, ints));
}

TEST_CASE("kernel errors are classed by what the simulator reports", "[host][grading]") {
  const std::string head =
      "n=1 block=256 seed=1 uniform: sim: kernel 'k' block (0,0,0) thread (1,0,0): ";
  CHECK(classify_kernel_error(
            head + "racecheck: write-after-read race on shared[1]: thread 0 read it at k.cuh:21, "
                   "then thread 1 wrote it at k.cuh:21, with no __syncwarp") == BugClass::race);
  CHECK(classify_kernel_error(
            head + "__syncthreads at k.cuh:20 is not reached by threads 128-255 of the block, "
                   "which exited") == BugClass::barrier);
  CHECK(
      classify_kernel_error(
          head + "threads of the block wait at different __syncthreads: threads 0-3 at k.cuh:5") ==
      BugClass::barrier);
  CHECK(classify_kernel_error(
            head + "deadlock: __syncwarp at k.cuh:9 with mask 0xffffffff never completes") ==
        BugClass::barrier);
  CHECK(classify_kernel_error(
            head + "out of range: shared[256] is outside the block's dynamic shared memory") ==
        BugClass::out_of_range);
  CHECK(classify_kernel_error(head + "read or wrote past the end of dynamic shared memory") ==
        BugClass::out_of_range);
  CHECK(classify_kernel_error(head + "checked_span 'in': index 9 is out of range (length 9)") ==
        BugClass::out_of_range);
  CHECK(classify_kernel_error(head + "uncaught exception: boom") == BugClass::crash);
  // A lesson's own failure line, with no class said: a wrong result is lost input.
  CHECK(classify_failure_line("sum float32 n=1000: expected 3, got 2") == BugClass::lost_input);
  CHECK(classify_failure_line("n=3: the output was never written") == BugClass::never_written);
  CHECK(classify_failure_line(head + "uncaught exception: boom") == BugClass::crash);
  for (BugClass b : all_bug_classes) {
    CHECK(parse_bug_tag(bug_tag(b)) == b);
    CHECK_FALSE(bug_meaning(b).empty());
  }
  CHECK(to_string(BugClass::integer_only) == "wrong on integer data only");
  CHECK(to_string(BugClass::thread_order) == "wrong only in some thread order");
}

TEST_CASE("the grader points to the hint that matches the bug", "[host][grading]") {
  const std::string plain =
      "# Hints\n## Hint 1\nFold the block in half.\n## Hint 2\nEvery level ends with "
      "`__syncthreads()`, outside "
      "the `if`.\n## Hint 3\nIn pseudo-code: out[blockIdx.x] = partial[0]\n";
  CHECK(matching_hint(plain, bug_tag(BugClass::race), bug_keywords(BugClass::race)) == 2);
  CHECK(matching_hint(plain, bug_tag(BugClass::barrier), bug_keywords(BugClass::barrier)) == 2);
  CHECK(matching_hint(plain, bug_tag(BugClass::never_written),
                      bug_keywords(BugClass::never_written)) == 3);
  // nothing matches
  CHECK(matching_hint(plain, bug_tag(BugClass::crash), bug_keywords(BugClass::crash)) == 1);
  // A tag in a hint wins over the words, and is not printed.
  const std::string tagged =
      "## Hint 1\nA barrier per level.\n## Hint 2\n<!-- grader: race, thread-order -->\nRead, "
      "wait, write, wait.\n";
  CHECK(matching_hint(tagged, "race", bug_keywords(BugClass::race)) == 2);
  CHECK(matching_hint(tagged, "thread-order", {}) == 2);
  CHECK(matching_hint(tagged, "barrier", bug_keywords(BugClass::barrier)) == 1);
  CHECK(*hint_text(tagged, 2) == "Read, wait, write, wait.");
  CHECK(matching_hint("no hints", "race", {}) == 0);
}

TEST_CASE("hints are read section by section", "[host][grading]") {
  const std::string md =
      "# Hints\n## Hint 1\nLook at the loop.\n\n## Hint 2\nHalve it.\n## Hint 3\n  Nearly: s /= 2  "
      "\n";
  CHECK(hint_count(md) == 3);
  CHECK(*hint_text(md, 1) == "Look at the loop.");
  CHECK(*hint_text(md, 2) == "Halve it.");
  CHECK(*hint_text(md, 3) == "Nearly: s /= 2");
  CHECK_FALSE(hint_text(md, 0));
  CHECK_FALSE(hint_text(md, 4));
  CHECK(hint_count("no hints here") == 0);
}

TEST_CASE("the watchdog returns what the child said and how it ended", "[host][grading]") {
  const WatchedRun ok = run_watched(
      [](const Reporter& r) {
        r.say("case one");
        r.say("pass two\nlines");
        return 0;
      },
      5);
  CHECK(ok.end == WatchedRun::End::exited);
  CHECK(ok.code == 0);
  REQUIRE(ok.lines.size() == 2);
  CHECK(ok.lines[1] == "pass two lines");  // a newline inside a report never splits it

  const WatchedRun failed = run_watched([](const Reporter&) { return 3; }, 5);
  CHECK(failed.end == WatchedRun::End::exited);
  CHECK(failed.code == 3);

  const WatchedRun crashed = run_watched(
      [](const Reporter&) {
        std::raise(SIGABRT);
        return 0;
      },
      5);
  CHECK(crashed.end == WatchedRun::End::signalled);
  CHECK(crashed.code == SIGABRT);
}

TEST_CASE("the watchdog stops a child that goes quiet, but not one that keeps reporting",
          "[host][grading]") {
  const auto start = std::chrono::steady_clock::now();
  const WatchedRun hung = run_watched(
      [](const Reporter& r) {
        r.say("case forever");
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        return 0;
      },
      0.5);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(hung.end == WatchedRun::End::silent);
  CHECK(waited < 5);
  REQUIRE(hung.lines.size() == 1);
  CHECK(hung.lines[0] == "case forever");

  // 1.2 s of work in steps of 0.2 s, each reported, under a 0.5 s quiet limit: never cut off.
  const WatchedRun slow = run_watched(
      [](const Reporter& r) {
        for (int i = 0; i < 6; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
          r.say("case " + std::to_string(i));
        }
        return 0;
      },
      0.5);
  CHECK(slow.end == WatchedRun::End::exited);
  CHECK(slow.lines.size() == 6);
}

// The queued calls of a plan launched to overlap the call before it (lessons 13 and 14): which plans
// are graded so, the verdict on their two totals, and the line that hands them back.
TEST_CASE("queued calls: which plans, their verdict and their record", "[host][grading]") {
  Plan p;
  p.depth = [](std::uint64_t, unsigned, const DeviceShape&) -> std::uint64_t { return 32; };
  CHECK_FALSE(is_queued_graded(p));  // a plain launch waits outside: nothing to grade
  p.way.programmatic = true;
  CHECK(is_queued_graded(p));
  Plan graph = p;
  graph.way.launch = LaunchPath::graph;
  CHECK_FALSE(is_queued_graded(graph));
  Plan replaying = p;
  replaying.replays = true;
  CHECK_FALSE(is_queued_graded(replaying));

  // base seed 0: the input of grade_seeds[0]; the second call sums the first 2^15+3 of it
  std::vector<float> input((1u << 16) + 1);
  fill_run_input(input, grade_seeds[0], Distribution::uniform);
  const float whole = static_cast<float>(reference_sum(input).sum);
  const float prefix =
      static_cast<float>(reference_sum(std::span<const float>(input.data(), (1u << 15) + 3)).sum);
  const DeviceShape shape;
  CHECK_FALSE(queued_judged({whole, prefix, ""}, p, 0, shape));
  const auto swapped = queued_judged({prefix, whole, ""}, p, 0, shape);
  REQUIRE(swapped);
  CHECK(swapped->bug == BugClass::lost_input);
  CHECK_THAT(swapped->why, Catch::Contains("the first call's total is") &&
                               Catch::Contains("cudaGridDependencySynchronize"));
  const auto unwritten =
      queued_judged({whole, std::numeric_limits<float>::quiet_NaN(), ""}, p, 0, shape);
  REQUIRE(unwritten);
  CHECK(unwritten->bug == BugClass::never_written);
  CHECK_THAT(unwritten->why, Catch::Contains("the second call's total"));
  const auto raced = queued_judged(
      {0, 0,
       "sim: kernel 'k' block (0,0,0) thread (0,0,0): racecheck: write-after-write race on "
       "partials[0] across blocks"},
      p, 0, shape);
  REQUIRE(raced);
  CHECK(raced->bug == BugClass::race);
  // A plan whose idea is to work before it waits: judged on what the early block did, where seen.
  Plan late = p;
  late.idea.works_before_wait = true;
  CHECK_FALSE(queued_judged({whole, prefix, "", 2, true}, late, 0, shape));
  CHECK_FALSE(queued_judged({whole, prefix, "", -1, false}, late, 0, shape));  // a GPU: not seen
  CHECK_FALSE(queued_judged({whole, prefix, "", 0, true}, p, 0, shape));       // not its idea
  const auto waited_first = queued_judged({whole, prefix, "", 0, true}, late, 0, shape);
  REQUIRE(waited_first);
  CHECK(waited_first->bug == BugClass::not_the_idea);
  CHECK_THAT(waited_first->why, Catch::Contains("reached no __syncthreads before its "
                                                "cudaGridDependencySynchronize()"));
  const auto never_waited = queued_judged({whole, prefix, "", 2, false}, late, 0, shape);
  REQUIRE(never_waited);
  CHECK_THAT(never_waited->why, Catch::Contains("never waited for the first"));

  // The lines: two totals' bits, or the error; up to one a plan, in order.
  CHECK(recorded_queued(1.0f, -2.0f, "") == "queued 3f800000 c0000000 - -");
  CHECK(recorded_queued(1.0f, -2.0f, "", 2, true) == "queued 3f800000 c0000000 2 1");
  CHECK(recorded_queued(1.0f, 2.0f, "racecheck: a race") == "queued error racecheck: a race");
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("reducelab-queued-" + std::to_string(::getpid()) + ".outputs"))
                               .string();
  const auto recorded = [&](const std::string& text) {
    std::ofstream(path) << text;
    return read_recorded(path, 1 << 20);
  };
  const Recorded two = recorded("backend sim\n" + recorded_queued(1.0f, -2.0f, "", 3, true) + "\n" +
                                recorded_queued(0, 0, "racecheck: a race") + "\n" +
                                recorded_queued(1.0f, -2.0f, "") + "\nend exit 1\n");
  CHECK(two.malformed.empty());
  REQUIRE(two.queued.size() == 3);
  CHECK(two.queued[0].first == 0x3f800000u);
  CHECK(two.queued[0].second == 0xc0000000u);
  CHECK(two.queued[0].error.empty());
  CHECK(two.queued[0].early_barriers == 3);
  CHECK(two.queued[0].early_waited);
  CHECK(two.queued[1].error == "racecheck: a race");
  CHECK(two.queued[2].early_barriers == -1);
  for (const char* bad :
       {"queued", "queued 3f800000", "queued 3f800000 c0000000", "queued 3f800000 c0000000 1",
        "queued 3f800000 c0000000 1 2", "queued 3f800000 c0000000 - 1",
        "queued 3f800000 c0000000 1 1 1", "queued 3f80000 c0000000 - -",
        "queued xyz00000 c0000000 - -", "queued error"}) {
    INFO(bad);
    CHECK_FALSE(recorded(std::string("backend sim\n") + bad + "\nend exit 0\n").malformed.empty());
  }
  std::remove(path.c_str());
}

// Lesson 16's idea (Plan::never_waits): one call on a stream held for held_ms, judged on how long
// it took to return and on its total; and the line that hands the figures back.
TEST_CASE("a call on a held stream: its verdict and its record", "[host][grading]") {
  Plan p;
  p.depth = [](std::uint64_t, unsigned, const DeviceShape&) -> std::uint64_t { return 32; };
  // base seed 0: the 1000 floats of grade_seeds[0]
  std::vector<float> input(1000);
  fill_run_input(input, grade_seeds[0], Distribution::uniform);
  const float total = static_cast<float>(reference_sum(input).sum);
  const DeviceShape shape;
  CHECK_FALSE(held_judged({held_ms, 0.05, total}, p, 0, shape));
  CHECK_FALSE(held_judged({held_ms, held_ms / 2 - 1, total}, p, 0, shape));
  const auto waited = held_judged({held_ms, 200.4, total}, p, 0, shape);
  REQUIRE(waited);
  CHECK_THAT(*waited, Catch::Contains("the call took 200.4 ms to return: it waited for the GPU"));
  CHECK(held_judged({held_ms, -1.0, total}, p, 0, shape));
  CHECK(held_judged({held_ms, std::numeric_limits<double>::quiet_NaN(), total}, p, 0, shape));
  const auto short_hold = held_judged({1.0, 0.05, total}, p, 0, shape);
  REQUIRE(short_hold);
  CHECK_THAT(*short_hold, Catch::Contains("held it for 1 ms"));
  const auto wrong = held_judged({held_ms, 0.05, total + 1.0f}, p, 0, shape);
  REQUIRE(wrong);
  CHECK_THAT(*wrong, Catch::Contains("its total was"));
  const auto unwritten =
      held_judged({held_ms, 0.05, std::numeric_limits<float>::quiet_NaN()}, p, 0, shape);
  CHECK(unwritten);

  CHECK(recorded_held(200.0, 0.0123, 1.0f) == "held 200.000 0.012 3f800000");
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("reducelab-held-" + std::to_string(::getpid()) + ".outputs"))
                               .string();
  const auto recorded = [&](const std::string& text) {
    std::ofstream(path) << text;
    return read_recorded(path, 1 << 20);
  };
  const Recorded good =
      recorded("backend gpu\n" + recorded_held(200.0, 201.5, -2.0f) + "\nend exit 0\n");
  CHECK(good.malformed.empty());
  REQUIRE(good.held);
  CHECK(good.held->held_ms == 200.0);
  CHECK(good.held->call_ms == 201.5);
  CHECK(good.held->bits == 0xc0000000u);
  for (const char* bad : {"held", "held 200", "held 200 1", "held 200 1 3f80000", "held 200 1 x",
                          "held -200 1 3f800000", "held 200 -1 3f800000", "held 200 1e3 3f800000",
                          "held 200 nan 3f800000", "held 200 1 3f800000 4"}) {
    INFO(bad);
    CHECK_FALSE(recorded(std::string("backend gpu\n") + bad + "\nend exit 0\n").malformed.empty());
  }
  CHECK_FALSE(recorded("backend gpu\n" + recorded_held(200.0, 1.0, 1.0f) + "\n" +
                       recorded_held(200.0, 1.0, 1.0f) + "\nend exit 0\n")
                  .malformed.empty());  // one line at most
  std::remove(path.c_str());
}

TEST_CASE("a judge's idea mark classes its line and comes out of it", "[host][grading]") {
  std::string marked =
      "2 GPUs, n=1000: " + std::string(idea_mark) + "GPU 1 is the root, but GPU 0's";
  CHECK(classify_judged(marked) == BugClass::not_the_idea);
  CHECK(marked == "2 GPUs, n=1000: GPU 1 is the root, but GPU 0's");
  std::string plain = "2 GPUs, n=1000: expected 3, got 4";
  CHECK(classify_judged(plain) == classify_failure_line("2 GPUs, n=1000: expected 3, got 4"));
  CHECK(plain == "2 GPUs, n=1000: expected 3, got 4");
}
