// Lesson 11 on the simulator: Little's law and the roofline against numbers worked out by hand, the
// pointer chase's cycle (it visits every line and comes back), the simulator's side of the
// exercise's target, and the persistent grids the occupancy API now sizes (on the simulator, the
// same as before it did).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "common/host/course.h"
#include "common/host/idea.h"
#include "common/host/session.h"
#include "common/host/sim_bridge.h"
#include "lessons/11_latency_and_roofline/chase.h"
#include "lessons/11_latency_and_roofline/report.h"
#include "lessons/11_latency_and_roofline/stream_sum.cuh"  // the own kernel's constants

using namespace rl;
using namespace rl::latency;

TEST_CASE("Little's law and the roofline, by hand", "[sim][latency]") {
  // 3000 GB/s = 3000 bytes a ns; 500 ns of latency: 1.5 MB on their way, 11364 bytes an SM of 132.
  CHECK(bytes_in_flight_needed(3000.0, 500.0) == Approx(1.5e6));
  CHECK(bytes_in_flight_needed(3077.0, 1000.0) / 132 == Approx(23310.606));
  // Lesson 07 at block 256: 8 blocks of 256 an SM, two 4-byte loads each: 16 KiB an SM.
  CHECK(resident_threads_per_sm(8, 256, 1056, 132) == 2048);
  CHECK(bytes_in_flight(2, 4, 2048) == 16384.0);
  // Lesson 12 at block 1024: 2 blocks of 1024, four 16-byte loads each: 128 KiB an SM.
  CHECK(resident_threads_per_sm(2, 1024, 264, 132) == 2048);
  CHECK(bytes_in_flight(4, 16, 2048) == 131072.0);
  // A grid smaller than the GPU: 64 blocks over 132 SMs leave each SM at most one.
  CHECK(resident_threads_per_sm(2, 1024, 64, 132) == 1024);
  CHECK(resident_threads_per_sm(8, 256, 0, 132) == 0);
  // 16384 bytes where 20000 are needed sustain 81.92%; more than needed, all of it.
  CHECK(sustainable_fraction(16384.0, 20000.0) == Approx(0.8192));
  CHECK(sustainable_fraction(131072.0, 20000.0) == 1.0);
  // The H100's roofs: 132 SMs x 128 adds x 1.98 GHz = 33454.08 GFLOP/s against 3352 GB/s; the sum's
  // 0.25 FLOP a byte reaches 838 GFLOP/s, under the ridge at 9.98 FLOP a byte.
  CHECK(fp32_adds_per_clock(9, 0) == 128);
  CHECK(fp32_adds_per_clock(8, 0) == 0);
  const double peak = 132.0 * 128 * 1980 / 1000.0;
  CHECK(peak == Approx(33454.08));
  CHECK(roofline_gflops(peak, sum_intensity, 3352.0) == Approx(838.0));
  CHECK(roofline_gflops(peak, 100.0, 3352.0) == Approx(peak));
  CHECK(ridge_intensity(peak, 3352.0) == Approx(9.98032));
}

TEST_CASE("the chase's buffer is one cycle through every line", "[sim][latency]") {
  const std::uint64_t lines = 1000;
  const std::uint64_t stride = chase_line_bytes / sizeof(unsigned);
  const auto next = chase_cycle(lines, chase_line_bytes, 7);
  REQUIRE(next.size() == lines * stride);
  std::set<unsigned> seen;
  unsigned i = 0;
  for (std::uint64_t hop = 0; hop < lines; ++hop) {
    REQUIRE(i % stride == 0);  // always the start of a line
    seen.insert(i);
    i = next[i];
    if (hop + 1 < lines) CHECK(i != 0);  // not back before every line is seen
  }
  CHECK(i == 0);
  CHECK(seen.size() == lines);
  std::uint64_t off_chain = 0;  // the rest of each line is not part of the chain
  for (std::uint64_t k = 0; k < next.size(); ++k) off_chain += k % stride && next[k] != 0;
  CHECK(off_chain == 0);
  CHECK(chase_cycle(lines, chase_line_bytes, 8) != next);
  CHECK_THROWS_AS(chase_cycle(1, chase_line_bytes, 7), std::invalid_argument);
  CHECK_THROWS_AS(chase_cycle(std::uint64_t{1} << 28, chase_line_bytes, 7), std::invalid_argument);
}

TEST_CASE("the pointer chase kernel follows its chain on the simulator", "[sim][latency]") {
  auto device = make_sim_device();
  // Four lines, 0 -> 2 -> 1 -> 3 -> 0: four steps visit indices 64, 32, 96 and 0 (32 to a line).
  std::vector<unsigned> next(4 * 32, 0);
  next[0] = 64, next[64] = 32, next[32] = 96, next[96] = 0;
  // Two cycles, 0 -> 1 -> 0 and 2 -> 3 -> 2: four steps also end at 0, but see 32, 0, 32, 0.
  std::vector<unsigned> split(4 * 32, 0);
  split[0] = 32, split[32] = 0, split[64] = 96, split[96] = 64;
  for (const auto& [chain, end, sum] :
       {std::tuple{next, 0u, 192ull}, std::tuple{split, 0u, 64ull}}) {
    DeviceBuffer d_next(*device, chain.size() * sizeof(unsigned));
    DeviceBuffer at(*device, sizeof(unsigned));
    DeviceBuffer visited(*device, sizeof(unsigned long long));
    device->upload(d_next.get(), chain.data(), chain.size() * sizeof(unsigned));
    const unsigned zero = 0;
    const unsigned long long none = 0;
    device->upload(at.get(), &zero, sizeof zero);
    device->upload(visited.get(), &none, sizeof none);
    launch_chase<Backend::sim>(d_next.get<const unsigned>(), at.get<unsigned>(), 4,
                               visited.get<unsigned long long>(), nullptr);
    unsigned got_end = 1;
    unsigned long long got_sum = 0;
    device->download(&got_end, at.get(), sizeof got_end);
    device->download(&got_sum, visited.get(), sizeof got_sum);
    CHECK(got_end == end);
    CHECK(got_sum == sum);
  }
  // A whole random cycle: run_chase's lap comes back to the start having seen every line.
  const Chase c = run_chase(*device, 4096, 0, Sampling{});
  CHECK(c.lines == 4096);
  CHECK(c.visited_all);
  CHECK(c.timed_hops == 0);  // the simulator times nothing
}

namespace {
const Plan& lesson19(std::string_view variant) {
  const Plan* p = find_plan(11, Backend::sim, variant);
  REQUIRE(p);
  return *p;
}
}  // namespace

TEST_CASE("the exercise's target on the simulator is Little's law over its loads in flight",
          "[sim][latency]") {
  const DeviceShape h100;
  // One 4-byte load a thread, 2048 threads an SM: 8192 bytes, where 3077 GB/s x 1000 ns / 132 SMs
  // = 23310.6 are needed: 35.1%, under the 90% target.
  const auto slow = simulated_target(lesson19("1x4B"), 256, h100);
  REQUIRE(slow);
  CHECK_THAT(*slow, Catch::Contains("1 x 4 bytes in flight a thread x 2048 threads an SM = 8 KiB"));
  CHECK_THAT(*slow, Catch::Contains("at most 35.1% of it; the target is 90%"));
  // The lesson's own kernel (four 16-byte loads): 128 KiB an SM, more than enough.
  CHECK_FALSE(simulated_target(lesson19(""), 256, h100));
  // The verdicts do not hang on the latency assumed: the same from 400 ns to 6 us.
  for (const double ns : {400.0, 6000.0}) {
    const DramModel dram{simulated_dram.gbps, ns};
    CHECK(simulated_target(lesson19("1x4B"), 256, h100, dram));
    CHECK_FALSE(simulated_target(lesson19(""), 256, h100, dram));
  }
  // 16 bytes a thread however they are spent (four floats, two float2s, one float4): 32 KiB an SM,
  // 140.6% of the need.
  for (const char* v : {"4x4B", "2x8B", "1x16B"}) {
    INFO(v);
    CHECK_FALSE(simulated_target(lesson19(v), 256, h100));
  }
}

TEST_CASE("lesson 11's plans name the loads their kernels keep in flight", "[sim][latency]") {
  const std::pair<std::string_view, std::pair<unsigned, unsigned>> expected[] = {
      {"", {loads_in_flight, load_bytes}},
      {"1x4B", {1, 4}},
      {"4x4B", {4, 4}},
      {"2x8B", {2, 8}},
      {"1x16B", {1, 16}},
      {"8x16B", {8, 16}},
      {"load_ahead", {2, 16}}};  // one float4 a turn, two turns issued before it waits
  for (const auto& [variant, loads] : expected) {
    INFO("variant '" << variant << "'");
    CHECK(lesson19(variant).loads_in_flight == loads.first);
    CHECK(lesson19(variant).load_bytes == loads.second);
  }
  CHECK(plans_of(11, Backend::sim).size() == std::size(expected));
}

TEST_CASE("the exercise's variant issues its next turn before it adds: the simulator counts it",
          "[sim][latency]") {
  // Recorded as the grade records it (n = 2048, blocks of 256): thread 0 of block 0 holds two
  // float4s of the input (loads 0 and 256 of 512). stream_sum's turn, one float4 (1x16B), is added
  // before the next is issued; load_ahead's next turn is on its way first; the own kernel's turn of
  // four is more than thread 0's share, so it adds each float4 as it comes, after its loop.
  auto device = make_sim_device();
  const std::pair<std::string_view, std::int64_t> expected[] = {
      {"1x16B", 1}, {"load_ahead", 2}, {"4x4B", 4}, {"", 1}};
  for (const auto& [variant, loads] : expected) {
    INFO("variant '" << variant << "'");
    const IdeaFigures f = idea_figures(*device, lesson19(variant), 1);
    CHECK(f.loads_before_add == loads);
    CHECK(idea_judged(f, lesson19(variant).idea).has_value() == false);
  }
  CHECK(lesson19("load_ahead").idea.loads_ahead == 2);
  IdeaFigures one_at_a_time = idea_figures(*device, lesson19("1x16B"), 1);
  CHECK(idea_judged(one_at_a_time, lesson19("load_ahead").idea));
}

TEST_CASE("the simulator sizes every persistent grid as the thread limit did", "[sim][latency]") {
  // persistent_grid now takes the blocks an SM holds from the kernel (common/occupancy.h); on the
  // simulator that is the shape's thread and block limit, what it counted before, so lessons 07-12
  // launch the same grids and give the same bits.
  const DeviceShape h100;
  std::set<int> lessons;
  for (const Plan& p : ladder_plans()) {
    if (p.backend != Backend::sim || !p.resources) continue;
    lessons.insert(p.lesson);
    for (unsigned block = 32; block <= 1024; block *= 2) {
      INFO("lesson " << p.lesson << " " << p.variant << " block " << block);
      CHECK(p.resources(block, h100).blocks_per_sm == std::clamp(2048u / block, 1u, 32u));
      CHECK(p.resources(block, h100).registers == 0);
      CHECK(p.loads_in_flight > 0);
      CHECK(p.load_bytes > 0);
    }
  }
  CHECK(lessons == std::set<int>{7, 8, 9, 10, 11, 12});
}

TEST_CASE("the ladder runs in its folders' order", "[sim][latency]") {
  std::vector<int> order;
  for (const Plan& p : ladder_plans())
    if (p.backend == Backend::sim && (order.empty() || order.back() != p.lesson))
      order.push_back(p.lesson);
  CHECK(order ==
        std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});  // 16: the GPU only
}
