// Two traces compared as a teacher would: the same input or not, and where they first differ.
#include <catch2/catch.hpp>

#include "viewer/trace_compare.h"
#include "viewer_test_support.h"

using namespace rl;
using namespace rl::viewer;

TEST_CASE(
    "the missing barrier against the solution: same input, a first difference with both values",
    "[compare]") {
  const Trace bad = test::asset("broken/03_missing_barrier.sim.json");
  const Trace good = test::asset("03_sequential_addressing.sim.json");
  REQUIRE(bad.result == Approx(-0.58994).epsilon(1e-4));
  REQUIRE(good.result == Approx(-0.42314).epsilon(1e-4));
  const TraceComparison c = compare_traces(bad, good);
  REQUIRE(c.same_input);
  REQUIRE(c.input_differences.empty());
  REQUIRE(c.first.found);
  REQUIRE(c.first.event[0] >= 0);
  REQUIRE(c.first.event[1] >= 0);
  REQUIRE(c.first.value[0] != c.first.value[1]);
  REQUIRE(bad.events[static_cast<std::size_t>(c.first.event[0])].value == c.first.value[0]);
  REQUIRE(good.events[static_cast<std::size_t>(c.first.event[1])].value == c.first.value[1]);
  // Both name the same write: the same place, the same thread.
  const Event& a = bad.events[static_cast<std::size_t>(c.first.event[0])];
  const Event& b = good.events[static_cast<std::size_t>(c.first.event[1])];
  REQUIRE(a.dst == b.dst);
  REQUIRE(a.thread == b.thread);
  REQUIRE(c.first.location == "shared[0]");
  // Seen from the other side, the same write.
  const TraceComparison r = compare_traces(good, bad);
  REQUIRE(r.first.event[0] == c.first.event[1]);
  REQUIRE(r.first.event[1] == c.first.event[0]);
}

TEST_CASE("a trace against itself has no difference; another lesson on the same input has one",
          "[compare]") {
  const Trace t = test::asset("03_sequential_addressing.sim.json");
  const TraceComparison same = compare_traces(t, t);
  REQUIRE(same.same_input);
  REQUIRE(!same.first.found);
  const TraceComparison other = compare_traces(test::asset("02_interleaved_strided.sim.json"), t);
  REQUIRE(other.same_input);
  REQUIRE(other.first.found);
}

TEST_CASE("traces of different inputs are said to be so, and not compared further", "[compare]") {
  const TraceComparison c = compare_traces(test::asset("03_sequential_addressing.sim.json"),
                                           test::asset("03_sequential_addressing.b256.sim.json"));
  REQUIRE(!c.same_input);
  REQUIRE(c.input_differences == "n 64 and 512, block 32 and 256");
  REQUIRE(!c.first.found);
  // Same sizes, another seed's values.
  Trace a = test::asset("03_sequential_addressing.sim.json");
  Trace b = a;
  b.input[5] += 1;
  const TraceComparison d = compare_traces(a, b);
  REQUIRE(!d.same_input);
  REQUIRE(d.input_differences == "input element 5 differs");
}
