// The Run panel's model (viewer/run_model.h): choosing a kernel of the course, running it on the
// simulator off the caller's thread, refusing what it should not run, and cancelling. Results are
// checked against sums computed here from the run's own input (the trace's), not against the
// harness's reference.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <thread>

#include "common/host/course.h"
#include "lessons/17_common_bugs/bugs.h"
#include "viewer/run_model.h"

namespace {

using rl::viewer::RunModel;
using rl::viewer::RunOutcome;
using rl::viewer::RunRequest;

// Polls until the run ends (at most `limit_s`), and returns its outcome.
RunOutcome finish(RunModel& m, double limit_s = 120) {
  const auto t0 = std::chrono::steady_clock::now();
  while (m.poll()) {
    REQUIRE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < limit_s);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  auto o = m.take_outcome();
  REQUIRE(o.has_value());
  return *o;
}

double sum_of_input(const std::string& trace) {
  const auto t = nlohmann::json::parse(trace);
  double s = 0;
  for (const auto& v : t.at("input")) s += v.get<double>();
  return s;
}

int choice(const std::string& key) {
  const int c = rl::viewer::find_choice(key);
  REQUIRE(c >= 0);
  return c;
}

}  // namespace

TEST_CASE("the Run panel offers every simulated plan of the course, lesson 17's broken kernels too",
          "[run]") {
  const auto& cs = rl::viewer::run_choices();
  std::size_t sim_plans = 0;
  for (const auto& p : rl::ladder_plans())
    if (p.backend == rl::Backend::sim) ++sim_plans;
  std::set<std::string> keys;
  std::size_t broken = 0;
  for (const auto& c : cs) {
    CHECK(keys.insert(c.key).second);  // keys are unique: a link names one kernel
    REQUIRE(c.plan != nullptr);
    CHECK(c.plan->backend == rl::Backend::sim);
    if (c.broken) {
      ++broken;
      REQUIRE(c.solution != nullptr);
      CHECK(c.solution->variant == c.plan->variant);  // compared with its own fix
      CHECK(c.solution != c.plan);
    }
  }
  CHECK(broken == rl::bugs::count);  // every bug of lesson 17's catalogue
  CHECK(cs.size() == sim_plans + 2 * broken);
  CHECK(rl::viewer::find_choice("common_bugs/missing_barrier_in_loop") >= 0);
  CHECK(rl::viewer::find_choice("no_such_kernel") == -1);
}

TEST_CASE("a run of lesson 03's kernel gives the sum of its input and a trace of it", "[run]") {
  RunModel m;
  RunRequest r;
  r.choice = choice("sequential_addressing");
  r.n = 1000;
  r.block = 256;
  REQUIRE(m.start(r));
  CHECK(m.busy());
  CHECK_FALSE(m.start(r));  // one run at a time
  const RunOutcome o = finish(m);
  INFO(o.line);
  REQUIRE(o.status == RunOutcome::Status::done);
  CHECK(o.verified);
  REQUIRE_FALSE(o.trace.empty());
  const double expected = sum_of_input(o.trace);
  CHECK(std::fabs(o.total - expected) <= 1e-4 * std::fabs(expected) + 1e-3);
  const auto t = nlohmann::json::parse(o.trace);
  CHECK(t.at("n") == 1000);
  CHECK(t.at("block") == 256);
  CHECK(t.at("slug") == "sequential_addressing");
  CHECK(o.solution_trace.empty());
  CHECK_FALSE(m.busy());
}

TEST_CASE(
    "every thread order gives the same sum, and compare traces the solution on the same input",
    "[run]") {
  RunModel m;
  for (auto order :
       {rl::SimSchedule::lane_order, rl::SimSchedule::reverse_lanes, rl::SimSchedule::shuffled}) {
    RunRequest r;
    r.choice = choice("sequential_addressing");
    r.n = 777;
    r.block = 64;
    r.order = order;
    r.with_solution = true;
    REQUIRE(m.start(r));
    const RunOutcome o = finish(m);
    INFO(o.line);
    REQUIRE(o.status == RunOutcome::Status::done);
    const double expected = sum_of_input(o.trace);
    CHECK(std::fabs(o.total - expected) <= 1e-4 * std::fabs(expected) + 1e-3);
    REQUIRE_FALSE(o.solution_trace.empty());
    CHECK(nlohmann::json::parse(o.solution_trace).at("input") ==
          nlohmann::json::parse(o.trace).at("input"));
  }
}

TEST_CASE("the race detector reports lesson 17's missing barrier, and without it the run ends",
          "[run]") {
  RunModel m;
  RunRequest r;
  r.choice = choice("common_bugs/missing_barrier_in_loop");
  r.n = 1000;
  r.block = 256;
  r.racecheck = true;
  REQUIRE(m.start(r));
  const RunOutcome raced = finish(m);
  INFO(raced.line);
  CHECK(raced.status == RunOutcome::Status::failed);
  CHECK(raced.line.find("racecheck:") != std::string::npos);
  CHECK(raced.line.find("race on shared") != std::string::npos);
  CHECK(raced.line.find('\n') == std::string::npos);

  r.racecheck = false;
  r.with_solution = true;
  REQUIRE(m.start(r));
  const RunOutcome plain = finish(m);
  INFO(plain.line);
  CHECK(plain.status == RunOutcome::Status::done);
  CHECK_FALSE(plain.solution_trace.empty());
  CHECK(nlohmann::json::parse(plain.solution_trace).at("variant") == "missing_barrier_in_loop");
}

TEST_CASE("the Run panel refuses bad requests and runs over its time limit, with the estimate",
          "[run]") {
  RunModel m;
  RunRequest r;
  r.choice = choice("sequential_addressing");
  r.block = 100;
  CHECK_FALSE(m.start(r));
  auto o = m.take_outcome();
  REQUIRE(o);
  CHECK(o->status == RunOutcome::Status::refused);
  CHECK(o->line == "refused: block must be a power of two from 32 to 1024 (got 100)");
  r.block = 256;
  r.n = 0;
  CHECK_FALSE(m.start(r));
  CHECK(m.take_outcome()->line == "refused: n must be at least 1");

  // Over the limit: the estimate (measured on small runs, as the CLI's) says how long it would take.
  rl::viewer::RunLimits tight;
  tight.max_seconds = 1;
  RunModel small(tight);
  r.n = std::uint64_t{1} << 26;
  REQUIRE(small.start(r));
  o = finish(small);
  INFO(o->line);
  CHECK(o->status == RunOutcome::Status::refused);
  CHECK(o->line.starts_with("refused: the simulator would take about "));
  CHECK(o->line.find("over this viewer's limit of 1 s") != std::string::npos);
}

TEST_CASE("a run in flight can be cancelled, and the model runs again after", "[run]") {
  RunModel m;
  RunRequest r;
  r.choice = choice("sequential_addressing");
  r.n = std::uint64_t{1} << 22;
  r.block = 256;
  REQUIRE(m.start(r));
  // Wait until blocks are running, then cancel.
  const auto t0 = std::chrono::steady_clock::now();
  while (m.progress().blocks_done == 0 && m.poll()) {
    REQUIRE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 30);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  m.cancel();
  const RunOutcome o = finish(m, 10);
  INFO(o.line);
  CHECK(o.status == RunOutcome::Status::cancelled);
  CHECK(o.line == "cancelled");
  CHECK(o.seconds < 5);

  r.n = 300;
  REQUIRE(m.start(r));
  CHECK(finish(m).status == RunOutcome::Status::done);
}

TEST_CASE("a run in the page gets five sixths of its time, within its floor and 300 ms", "[run]") {
  // drawing the rest of a frame took 50 ms (software WebGL): the run's slice is 250 ms
  CHECK(rl::viewer::run_slice_ms(25, 50) == 250);
  // a fast frame: the floor holds, so a run still makes progress
  CHECK(rl::viewer::run_slice_ms(25, 2) == 25);
  // a very slow frame: at most 300 ms without a frame, so Cancel still answers
  CHECK(rl::viewer::run_slice_ms(25, 1000) == 300);
  // a floor above 300 ms wins
  CHECK(rl::viewer::run_slice_ms(400, 10) == 400);
}
