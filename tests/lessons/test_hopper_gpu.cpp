// Lessons 13 and 14 on the GPU, beyond what every ladder lesson gets there (test_lessons_gpu.cpp): exact
// around every block and cluster edge, the same bits over repeated runs and from calls queued back
// to back (where a launch that depends programmatically on the one before may overlap it), and
// __reduce_add_sync's integer sum. `lesson_gpu_tests "[hopper]"` runs these alone.
#include "tests/lessons/hopper_checks.h"

using namespace rl;
using test::gpu;

TEST_CASE("lessons 13 and 14 are exact around every block and cluster edge on the GPU",
          "[gpu][lessons][hopper]") {
  test::check_cluster_edges(gpu(), {32, 256, 1024});
}

TEST_CASE("lessons 13 and 14's plans give the same bits every run on the GPU",
          "[gpu][lessons][hopper]") {
  for (const std::uint64_t n : {(std::uint64_t{1} << 20) + 7, (std::uint64_t{1} << 24) + 3}) {
    RunOptions o;
    Session session(gpu(), o);
    session.prepare(n);
    for (const Plan& r : test::hopper_plans(Backend::gpu)) {
      INFO("lesson " << r.lesson << " " << r.variant << " n " << n);
      CHECK(session.distinct_results(r, r.preferred_block, 20) == 1);
    }
  }
}

TEST_CASE("lessons 13 and 14's calls queued back to back give the same bits on the GPU",
          "[gpu][lessons][hopper]") {
  for (const std::uint64_t n :
       {std::uint64_t{1000}, (std::uint64_t{1} << 20) + 7, (std::uint64_t{1} << 21) - 3})
    test::check_back_to_back(gpu(), n, 200);
}

TEST_CASE("__reduce_add_sync's integer sum is exact on the GPU", "[gpu][lessons][hopper]") {
  for (const std::uint64_t n :
       {0u, 1u, 31u, 32u, 33u, 1000u, (1u << 16) + 1, (1u << 20) + 7, (1u << 24) + 3})
    test::check_int_sum<Backend::gpu>(gpu(), n);
}
