// The grader's parts that need no kernel: the case list, the verdict on one result, the hints file,
// and the watchdog that turns a hang or a crash into a report.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <bit>
#include <cmath>
#include <limits>
#include <thread>

#include "common/host/grading.h"
#include "common/host/hints.h"
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
  CHECK(has(257, 256));          // one element past a block
  CHECK(has(1000, 256));         // not a power of two
  CHECK(has((1u << 20), 256));
  CHECK(has(1025, 1024));        // one past a block of every size
  CHECK(has(33, 32));
  CHECK_FALSE(has((1u << 24) + 3, 256));
  CHECK(graded_cases(true).size() > cases.size());
  CHECK(describe(cases.front()) == "n=0 block=256 seed=1 uniform");
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

TEST_CASE("hints are read section by section", "[host][grading]") {
  const std::string md = "# Hints\n## Hint 1\nLook at the loop.\n\n## Hint 2\nHalve it.\n## Hint 3\n  Nearly: s /= 2  \n";
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

TEST_CASE("the watchdog stops a child that goes quiet, but not one that keeps reporting", "[host][grading]") {
  const auto start = std::chrono::steady_clock::now();
  const WatchedRun hung = run_watched(
      [](const Reporter& r) {
        r.say("case forever");
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        return 0;
      },
      0.5);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
