// cuda::memcpy_async into shared memory with a cuda::barrier on the simulator: the bytes land when
// the barrier's phase completes, not when the copy is issued, so a thread that reads them before
// waiting reads poison (and, with race checking, is reported); every misuse is a report.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include <cooperative_groups.h>
#include <cuda/barrier>

#include "common/cuda_compat.h"
#include "tests/hopper/hopper_kernels.cuh"
#include "tests/sim/schedules.h"

namespace cg = cooperative_groups;
using Catch::Matchers::Contains;

namespace {

std::atomic<int> line_a{0};
std::string at(int line) { return "test_bulk_copy.cpp:" + std::to_string(line); }

using hopper_test::Barrier;
using hopper_test::bulk_load;

template <class Launch>
std::string report_of(Launch&& launch) {
  try {
    launch();
  } catch (const rl::sim::KernelError& e) {
    return e.what();
  }
  return "";
}

// Reads the destination between arrive() and wait(): too early for every thread but the one whose
// arrival completes the phase.
template <bool Checked>
__global__ void reads_before_wait(const float* in, float* out) {
  __shared__ Barrier bar;
  float* raw = rl::dynamic_shared<float>();
  rl::sim::SharedView<float> s = raw;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    line_a = __LINE__, cuda::memcpy_async(raw, in, cuda::aligned_size_t<16>(blockDim.x * 4), bar);
  Barrier::arrival_token token = bar.arrive();
  if constexpr (Checked)
    out[threadIdx.x] = s[threadIdx.x];
  else
    out[threadIdx.x] = raw[threadIdx.x];
  bar.wait(std::move(token));
}

// One arrival completes the phase; thread 1 reads the landed bytes without ever waiting.
__global__ void reads_without_waiting(const float* in, float* out) {
  __shared__ Barrier bar;
  float* raw = rl::dynamic_shared<float>();
  rl::sim::SharedView<float> s = raw;
  if (threadIdx.x == 0) init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    line_a = __LINE__, cuda::memcpy_async(raw, in, cuda::aligned_size_t<16>(64), bar);
    (void)bar.arrive();
  }
  if (threadIdx.x == 1) out[0] = s[0];
}

enum Misuse {
  odd_size,
  odd_destination,
  odd_source,
  global_destination,
  never_completes,
  no_init,
  too_many_arrivals,
  left_in_flight
};

template <Misuse M>
__global__ void misuse(const float* in, float* out) {
  __shared__ Barrier bar;
  float* s = rl::dynamic_shared<float>();
  if (threadIdx.x == 0 && M != no_init)
    init(&bar, M == never_completes ? blockDim.x + 1 : M == left_in_flight ? 2 : blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    const cuda::aligned_size_t<16> bytes(M == odd_size ? 20 : 64);
    float* dst = M == odd_destination ? s + 1 : M == global_destination ? out : s;
    const float* src = M == odd_source ? in + 1 : in;
    line_a = __LINE__, cuda::memcpy_async(dst, src, bytes, bar);
    if (M == too_many_arrivals) line_a = __LINE__, (void)bar.arrive(blockDim.x + 1);
  }
  if (M == left_in_flight) {
    if (threadIdx.x == 0) (void)bar.arrive();
    return;
  }
  if (M == never_completes)
    line_a = __LINE__, bar.arrive_and_wait();
  else
    bar.arrive_and_wait();
  out[threadIdx.x] = s[threadIdx.x % 16];
}

std::vector<float> iota_floats(std::size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 1.0f);
  return v;
}

}  // namespace

TEST_CASE("a bulk copy of 16 B to 64 KiB lands in shared memory by the barrier's phase",
          "[bulk_copy]") {
  constexpr unsigned grid = 3, block = 128;
  for (unsigned bytes : {16u, 1040u, 16384u, 49152u, 65536u}) {
    const unsigned count = bytes / 4;
    const std::vector<float> in = iota_floats(std::size_t{grid} * count);
    for (const auto& opts : {simtest::make_options(rl::sim::Schedule::lane_order, 1, 1),
                             simtest::make_options(rl::sim::Schedule::shuffled, 5, 2)}) {
      simtest::ScopedOptions scoped(opts);
      INFO(bytes << " bytes, " << simtest::describe(opts));
      std::vector<float> out(in.size(), -1.0f);
      rl::sim::launch("bulk_load", bulk_load<hopper_test::arrive_and_wait>, dim3(grid), dim3(block),
                      bytes, in.data(), out.data(), count);
      CHECK(out == in);
      std::fill(out.begin(), out.end(), -1.0f);
      rl::sim::launch("bulk_load", bulk_load<hopper_test::arrive_then_wait>, dim3(grid),
                      dim3(block), bytes, in.data(), out.data(), count);
      CHECK(out == in);
      std::fill(out.begin(), out.end(), -1.0f);
      rl::sim::launch("bulk_load", bulk_load<hopper_test::collective>, dim3(grid), dim3(block),
                      bytes, in.data(), out.data(), count);
      CHECK(out == in);
      if (count <= 1024) {
        std::fill(out.begin(), out.end(), -1.0f);
        rl::sim::launch("bulk_load", bulk_load<hopper_test::into_static>, dim3(grid), dim3(block),
                        0, in.data(), out.data(), count);
        CHECK(out == in);
      }
    }
  }
}

TEST_CASE("a read of a bulk copy's destination before waiting reads poison, or is reported",
          "[bulk_copy][racecheck]") {
  constexpr unsigned block = 64;
  const std::vector<float> in = iota_floats(block);
  for (const auto& opts : simtest::every_schedule(1)) {
    simtest::ScopedOptions scoped(opts);
    std::vector<float> out(block, 0.0f);
    rl::sim::launch("reads_before_wait", reads_before_wait<false>, dim3(1), dim3(block),
                    block * sizeof(float), in.data(), out.data());
    // every thread but the one whose arrival completed the phase read before the bytes landed
    const auto poisoned =
        std::count_if(out.begin(), out.end(), [](float x) { return std::isnan(x); });
    CHECK(poisoned == block - 1);
  }
  rl::sim::Options checking = simtest::make_options(rl::sim::Schedule::lane_order, 1, 1);
  checking.racecheck = true;
  simtest::ScopedOptions scoped(checking);
  std::vector<float> out(block);
  std::string msg = report_of([&] {
    rl::sim::launch("reads_before_wait", reads_before_wait<true>, dim3(1), dim3(block),
                    block * sizeof(float), in.data(), out.data());
  });
  CHECK_THAT(msg, Contains("sim: kernel 'reads_before_wait' block (0,0,0) thread (0,0,0): "
                           "racecheck: thread 0 read shared[0] while the cuda::memcpy_async issued "
                           "by thread 0 at " +
                           at(line_a) + " was still writing it"));
  msg = report_of([&] {
    rl::sim::launch("reads_without_waiting", reads_without_waiting, dim3(1), dim3(32),
                    32 * sizeof(float), in.data(), out.data());
  });
  CHECK_THAT(msg, Contains("sim: kernel 'reads_without_waiting' block (0,0,0) thread (1,0,0): "
                           "racecheck: thread 1 read shared[0], which the cuda::memcpy_async "
                           "issued by thread 0 at " +
                           at(line_a) + " wrote, without having waited on its barrier's phase"));
  // the correct kernels are clean under race checking
  std::vector<float> copy(block);
  rl::sim::launch("bulk_load", bulk_load<hopper_test::arrive_then_wait>, dim3(1), dim3(block),
                  block * sizeof(float), in.data(), copy.data(), block);
  CHECK(copy == in);
}

TEST_CASE("bulk copy and barrier misuse is reported with kernel, block, thread and line",
          "[bulk_copy][errors]") {
  constexpr unsigned block = 32;
  const std::vector<float> in = iota_floats(64);
  std::vector<float> out(64);
  const auto run = [&](auto kernel) {
    return report_of([&] {
      rl::sim::launch("misuse", kernel, dim3(2), dim3(block), 64 * sizeof(float), in.data(),
                      out.data());
    });
  };
  const std::string prefix = "sim: kernel 'misuse' block (0,0,0) thread (0,0,0): ";
  std::string msg = run(misuse<odd_size>);
  CHECK_THAT(msg, Contains(prefix + "cuda::memcpy_async at " + at(line_a) +
                           ": the size, 20 bytes, is not a multiple of 16, as "
                           "cuda::aligned_size_t<16> promised"));
  msg = run(misuse<odd_destination>);
  CHECK_THAT(msg, Contains(prefix + "cuda::memcpy_async at " + at(line_a) +
                           ": the destination is not 16-byte aligned"));
  msg = run(misuse<odd_source>);
  CHECK_THAT(msg, Contains(prefix + "cuda::memcpy_async at " + at(line_a) +
                           ": the source is not 16-byte aligned"));
  msg = run(misuse<global_destination>);
  CHECK_THAT(msg, Contains(prefix + "cuda::memcpy_async at " + at(line_a) +
                           ": the destination (64 bytes) is not in this block's shared memory"));
  msg = run(misuse<never_completes>);
  CHECK_THAT(msg, Contains(prefix + "deadlock: cuda::barrier wait at " + at(line_a) +
                           " never completes: the barrier's phase 0 still waits for 1 of its 33 "
                           "arrivals (and 64 bytes of bulk copies): threads 0-31 wait at "
                           "cuda::barrier wait at " +
                           at(line_a) + " for phase 0"));
  msg = run(misuse<no_init>);
  CHECK_THAT(msg, Contains(prefix + "cuda::memcpy_async at " + at(line_a) +
                           ": the cuda::barrier was not initialised in this block"));
  msg = run(misuse<too_many_arrivals>);
  CHECK_THAT(msg, Contains(prefix + "arrive at " + at(line_a) +
                           ": phase 0 of the cuda::barrier expects 32 more arrival(s) (init count "
                           "32); this one is too many"));
  msg = run(misuse<left_in_flight>);
  CHECK_THAT(msg, Contains(prefix + "cuda::memcpy_async at " + at(line_a) +
                           " was still in flight when the block ended"));
}
