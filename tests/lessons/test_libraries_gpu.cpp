// Lesson 16's idea on the GPU: a call that owns its temporary storage and never waits. On a stream
// held by a host function (Device::hold_stream), the stream-ordered variant returns at once and its
// total is right once the stream has run; Thrust's call, which hands its total to the host, returns
// only after the hold. And the grader's two halves (held_figures, held_judged) on both.
#include <chrono>

#include "common/host/grading.h"
#include "tests/lessons/ladder_checks.h"

using namespace rl;
using test::gpu;

TEST_CASE("lesson 16's stream_ordered call returns on a held stream; Thrust's waits",
          "[gpu][lessons]") {
  const Plan* ordered = find_plan(16, Backend::gpu, "stream_ordered");
  const Plan* thrust = find_plan(16, Backend::gpu, "thrust");
  REQUIRE(ordered);
  REQUIRE(thrust);
  CHECK(ordered->never_waits);
  CHECK_FALSE(thrust->never_waits);
  const HeldFigures quick = held_figures(gpu(), *ordered, 3);
  INFO("stream_ordered: " << quick.call_ms << " ms on a stream held for " << quick.held_ms);
  CHECK(quick.call_ms < held_ms / 2);
  CHECK_FALSE(held_judged(quick, *ordered, 3, gpu().shape()));
  const HeldFigures slow = held_figures(gpu(), *thrust, 3);
  INFO("thrust: " << slow.call_ms << " ms");
  CHECK(slow.call_ms >= held_ms * 0.9);  // it waited out the hold
  const auto why = held_judged(slow, *thrust, 3, gpu().shape());
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("it waited for the GPU"));
}
