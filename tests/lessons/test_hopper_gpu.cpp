// Lessons 13 and 14 on the GPU, beyond what every ladder lesson gets there (test_lessons_gpu.cpp): exact
// around every block and cluster edge, the same bits over repeated runs and from calls queued back
// to back (where a launch that depends programmatically on the one before may overlap it), and
// __reduce_add_sync's integer sum. `lesson_gpu_tests "[hopper]"` runs these alone.
#include "tests/lessons/hopper_checks.h"

#include <bit>

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

TEST_CASE("lesson 15's replays give lesson 13's bits, on the stream and recorded back to back",
          "[gpu][lessons][hopper]") {
  const Plan& own = *find_plan(15, Backend::gpu);
  const Plan& stream = *find_plan(13, Backend::gpu);
  for (const std::uint64_t n :
       {std::uint64_t{1000}, (std::uint64_t{1} << 20) + 7, (std::uint64_t{1} << 24) + 3}) {
    RunOptions o;
    Session session(gpu(), o);
    session.prepare(n);
    const CaseResult replayed = session.run(own, 1024, false);
    const CaseResult streamed = session.run(stream, 1024, false);
    INFO("n " << n << ": replayed " << replayed.check.got << ", on the stream "
              << streamed.check.got);
    CHECK(replayed.check.verified);
    CHECK(std::bit_cast<std::uint32_t>(static_cast<float>(replayed.check.got)) ==
          std::bit_cast<std::uint32_t>(static_cast<float>(streamed.check.got)));
    // The harness's graph timing: the calls of a sample recorded into one graph, lesson 13's
    // launches with the dependent launch between them, replayed. The first four calls (warm-up
    // and the one that sizes a sample) run on the stream; every output after them is written only
    // by the graph's replays, and each must hold the stream's bits.
    constexpr unsigned slots = 4 + 4096;
    DeviceBuffer out(gpu(), slots * sizeof(float));
    gpu().poison(out.get(), slots * sizeof(float));
    DeviceBuffer scratch(gpu(), own.scratch_bytes(n, 1024, gpu().shape()));
    unsigned next = 0;
    Sampling sampling;
    sampling.samples = 3;
    const Timing t = gpu().time(
        [&](std::size_t copy) {
          own.reduce({session.device_input(copy), out.get<float>() + next++ % slots, n, 1024,
                      scratch.get(), gpu().shape(), gpu().stream()});
        },
        session.copies(), sampling, LaunchPath::graph);
    gpu().synchronize();
    std::vector<float> got(4 + t.calls_per_sample);
    gpu().download(got.data(), out.get(), got.size() * sizeof(float));
    for (std::size_t k = 4; k < got.size(); ++k) {
      INFO("call " << k << " of the recorded graph: " << got[k]);
      CHECK(std::bit_cast<std::uint32_t>(got[k]) ==
            std::bit_cast<std::uint32_t>(static_cast<float>(streamed.check.got)));
    }
  }
}

TEST_CASE("__reduce_add_sync's integer sum is exact on the GPU", "[gpu][lessons][hopper]") {
  for (const std::uint64_t n :
       {0u, 1u, 31u, 32u, 33u, 1000u, (1u << 16) + 1, (1u << 20) + 7, (1u << 24) + 3})
    test::check_int_sum<Backend::gpu>(gpu(), n);
}
