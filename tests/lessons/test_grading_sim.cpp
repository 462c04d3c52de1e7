// The grader end to end on the simulator, in process: broken versions of lessons 03 and 05, each
// with one classic mistake, graded as --grade grades them (race detector on), must each get their
// bug class and the report that names it; a plan that drops one block must fail the exact spike
// case at the largest graded size; and every lesson's own kernel must be race-free in every thread
// order. (A hang needs the watchdog's child process: lessons/grade.sh --self-check covers that
// one.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "common/device/traced.h"
#include "common/grid_size.h"
#include "common/host/course.h"
#include "common/host/grading.h"
#include "common/host/sim_bridge.h"
#include "common/launch.h"
#include "tests/lessons/dropped_block.h"
#include "tests/lessons/ladder_cases.h"

// Lesson 17's catalogue of broken kernels (missing_barrier_in_loop, barrier_only_above_warp,
// barrier_inside_branch, reads_past_shared_memory, never_writes_output, ...), graded here as
// submissions; the one kernel below adds a variant the catalogue does not hold.
#include "lessons/17_common_bugs/broken.cuh"

RL_NAMESPACE_BEGIN
namespace broken {

// Lesson 17's missing_syncwarp with its shared memory written through a raw pointer, which the
// race detector cannot see: only the thread orders can catch it.
template <class Trace = NoTrace>
__global__ void missing_syncwarp_raw(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    float* raw = dynamic_shared<float>();
    Float<Trace> sum = partial[tid];
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      if (tid + stride < blockDim.x) sum += raw[tid + stride];
      raw[tid] = sum;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// A tree plan over one of the kernels above: `per_thread` inputs per thread (1: lesson 03, 2:
// lesson 05).
template <auto Kernel, unsigned PerThread>
void reduce(const ReduceCall& c) {
  for (const Pass& pass : tree_passes(c, std::uint64_t{PerThread} * c.block))
    launch("broken", Kernel, dim3(pass.blocks), dim3(c.block), c.block * sizeof(float), c.stream,
           pass.in, pass.out, pass.count);
}

template <auto Kernel, unsigned PerThread>
Plan plan(std::string_view variant) {
  return {.lesson = PerThread == 1 ? 3 : 5,
          .slug = "broken",
          .title = "a broken submission",
          .variant = variant,
          .backend = Backend::sim,
          .scratch_bytes =
              [](std::uint64_t n, unsigned b, const DeviceShape&) {
                return tree_scratch_bytes(n, std::uint64_t{PerThread} * b);
              },
          .reduce = reduce<Kernel, PerThread>,
          .depth = [](std::uint64_t n, unsigned b,
                      const DeviceShape&) { return tree_depth(n, std::uint64_t{PerThread} * b); }};
}

}  // namespace broken
RL_NAMESPACE_END

using namespace rl;

namespace {

// Grades one plan the way `NN --grade` does on the simulator (the race detector on unless
// `racecheck` says otherwise), then puts the simulator's options back.
Grade grade(const Plan& p, bool racecheck = true) {
  RunOptions o;
  o.grade = true;
  o.backend = Backend::sim;
  o.sim_racecheck = racecheck;
  apply_simulator_options(o);
  auto device = make_sim_device();
  const Grade g = grade_plans(*device, {p}, o, [](const std::string&) {});
  apply_simulator_options(RunOptions{});
  return g;
}

struct Broken {
  Plan plan;
  BugClass bug;
  std::string phrase;  // the report must name this
};

}  // namespace

TEST_CASE("each broken submission gets its bug class and a report that names it",
          "[sim][grading]") {
  using namespace rl::broken;
  const std::vector<Broken> broken{
      {plan<&missing_barrier_in_loop<NoTrace>, 1>("missing_barrier_in_loop"), BugClass::race,
       "racecheck: write-after-read race on shared[1]: thread 0 read it at broken.cuh:"},
      {plan<&barrier_only_above_warp<NoTrace>, 1>("barrier_only_above_warp"), BugClass::race,
       "racecheck: write-after-read race on shared[1]: thread 0 read it at broken.cuh:"},
      {plan<&volatile_tail<NoTrace>, 1>("volatile_tail"), BugClass::race,
       "racecheck: write-after-read race on shared[1]: thread 0 read it at broken.cuh:"},
      {plan<&missing_syncwarp<NoTrace>, 1>("missing_syncwarp"), BugClass::race,
       "racecheck: write-after-read race on shared[16]: thread 0 read it at broken.cuh:"},
      {plan<&barrier_inside_branch<NoTrace>, 1>("barrier_inside_branch"), BugClass::barrier,
       "is not reached by threads"},
      {plan<&reads_past_shared_memory<NoTrace>, 1>("reads_past_shared_memory"),
       BugClass::out_of_range,
       "out of range: shared[256] is outside the block's dynamic shared memory"},
      {plan<&never_writes_output<NoTrace>, 1>("never_writes_output"), BugClass::never_written,
       "never written"},
      // The detector cannot see a raw pointer: the thread orders still can.
      {plan<&missing_syncwarp_raw<NoTrace>, 1>("missing_syncwarp_raw"), BugClass::thread_order,
       "right in lane order, wrong when the threads run in reverse order"},
      {test::dropped_block_plan<Backend::sim>(), BugClass::lost_input,
       "n=257 block=256 seed=1 uniform: expected"},
  };
  for (const Broken& b : broken) {
    const Grade g = grade(b.plan);
    INFO(b.plan.variant << ": " << to_string(g.bug) << ": " << g.failure);
    CHECK_FALSE(g.passed);
    CHECK(g.bug == b.bug);
    CHECK_THAT(g.failure, Catch::Contains(b.phrase));
  }
  // With the detector off, the missing __syncwarp is still caught, by the thread orders.
  const Grade off = grade(plan<&missing_syncwarp<NoTrace>, 1>("missing_syncwarp"), false);
  CHECK(off.bug == BugClass::thread_order);
}

TEST_CASE("a plan that drops one block fails the exact case at the largest graded size",
          "[sim][grading]") {
  auto device = make_sim_device();
  const std::uint64_t largest = graded_sizes(false).back();
  const auto cases = graded_cases(false);
  const auto graded = std::find_if(cases.begin(), cases.end(), [&](const GradeCase& c) {
    return c.n == largest && c.distribution == Distribution::spikes;
  });
  REQUIRE(graded != cases.end());
  // The graded case, and the same seed 17 past it: a short last block of 17 inputs, where this
  // seed's stream has no spike (as at 2^31+17 on the GPU); the run's own spike at the last element
  // is there.
  GradeCase short_tail = *graded;
  short_tail.n = largest + 17;
  for (const GradeCase& spikes : {*graded, short_tail}) {
    // Lesson 03's tree, lesson 07's persistent grid and finishing block, lesson 12's single pass,
    // lesson 14's clusters.
    for (const int lesson : {3, 7, 12, 14}) {
      const Plan dropped = test::dropped_block_plan<Backend::sim>(lesson);
      const CaseResult r = run_graded_case(*device, dropped, spikes);
      const auto f = diagnose(r, spikes);
      INFO("lesson " << lesson << " n=" << spikes.n << ": " << (f ? f->why : "passed"));
      REQUIRE(f);
      CHECK(f->bug == BugClass::lost_input);
      // Lesson 03 loses its last block's inputs: one spike, or two when the block is full (the
      // stream's and the last element's); the others a block's whole share, many.
      if (lesson == 3)
        CHECK_THAT(f->why, Catch::Contains("short by 1:") || Catch::Contains("short by 2:"));
      else
        CHECK_THAT(f->why, Catch::Contains("short by "));
      CHECK(r.check.tolerance == 0.0);
      // The lesson's own plan is exact on the same input.
      const CaseResult own = run_graded_case(*device, *find_plan(lesson, Backend::sim), spikes);
      CHECK_FALSE(diagnose(own, spikes));
    }
  }
  // That the short tail holds no spike of the stream, which is what makes the case worth having.
  std::vector<float> tail(17);
  fill_input(tail, short_tail.seed, Distribution::spikes, largest);
  CHECK(std::count(tail.begin(), tail.end(), 1.0f) == 0);
}
