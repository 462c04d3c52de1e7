// Every lesson's kernel, traced on the simulator: the trace is the kernel's own account of its
// tree.
#include "tests/lessons/trace_checks.h"

using namespace rl;

TEST_CASE("each lesson's trace accounts for every input exactly once", "[sim][trace]") {
  auto device = make_sim_device();
  const int lesson = GENERATE(from_range(test::lessons_on(Backend::sim)));
  const Plan* r = find_plan(lesson, Backend::sim);
  REQUIRE(r);
  for (std::uint64_t n : {1u, 33u, 64u, 1000u})
    for (unsigned block : {32u, 64u}) {
      DYNAMIC_SECTION("lesson " << lesson << " n=" << n << " block=" << block) {
        test::check_trace(test::record(*device, *r, n, block, 5), n, block);
      }
    }
}

TEST_CASE("a trace that does not fit its buffer is refused, not truncated", "[sim][trace]") {
  auto device = make_sim_device();
  RunOptions o;
  Session session(*device, o);
  session.prepare(1000);
  TraceOptions small;
  small.capacity = 10;
  CHECK_THROWS_WITH(record_trace(session, *find_plan(3, Backend::sim), 32, small),
                    Catch::Contains("did not fit"));
  // and the lesson still runs untraced afterwards
  CHECK(session.run(*find_plan(3, Backend::sim), 32, false).check.verified);
}
