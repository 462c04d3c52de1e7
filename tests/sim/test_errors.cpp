#include <catch2/catch.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/checked_span.h"
#include "common/cuda_compat.h"
#include "tests/sim/schedules.h"

using Catch::Matchers::Contains;

namespace {

int g_line_a = 0, g_line_b = 0, g_line_c = 0;

__global__ void divergent_barrier(int* out) {
  if (blockIdx.x == 2 && threadIdx.x >= 32) {
    g_line_a = __LINE__ + 1;  // the barrier's line
    __syncthreads();
  } else {
    g_line_b = __LINE__ + 1;  // the barrier's line
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void early_return_barrier(int* out) {
  if (threadIdx.x >= 40) return;
  g_line_c = __LINE__ + 1;  // the barrier's line
  __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void shuffle_with_exited_lane(float* out) {
  const unsigned lane = threadIdx.x % 32;
  if (lane == 5) return;
  float v = static_cast<float>(lane);
  v += __shfl_down_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

__global__ void lane_not_in_mask(int* out) {
  out[threadIdx.x] = static_cast<int>(__ballot_sync(0x0000fffeu, 1));
}

__global__ void mask_beyond_partial_warp(int* out) {
  out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);
}

__global__ void mixed_collectives(int* out) {
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < 16)
    v = __shfl_xor_sync(0xffffffffu, v, 1);
  else
    v = static_cast<int>(__ballot_sync(0xffffffffu, v & 1));
  out[threadIdx.x] = v;
}

__global__ void span_reader(const float* p, unsigned long long n, float* out) {
  rl::checked_span<const float> in(p, n, "input");
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

__global__ void span_negative(const float* p, float* out) {
  rl::checked_span<const float> in(p, 8, "table");
  const int i = static_cast<int>(threadIdx.x) - 3;
  out[threadIdx.x] = in[i];
}

__global__ void throws_exception(int*) {
  if (blockIdx.x == 1 && threadIdx.x == 3) throw std::runtime_error("boom");
  __syncthreads();
}

int g_alive = 0;
struct Tracker {
  Tracker() { ++g_alive; }
  ~Tracker() { --g_alive; }
  Tracker(const Tracker&) = delete;
  Tracker& operator=(const Tracker&) = delete;
};

__global__ void unwinds_locals(int* out) {
  Tracker t;  // alive across the barrier at which the block dies
  if (threadIdx.x == 7) rl::sim::kernel_error("custom failure");
  __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void healthy(int* out) {
  int* s = rl::dynamic_shared<int>();
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

// After any failure the simulator must keep working.
void check_still_works() {
  constexpr unsigned grid = 4, block = 96;
  std::vector<int> out(grid * block, -1);
  rl::sim::launch("healthy", healthy, dim3(grid), dim3(block), block * sizeof(int), out.data());
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t)
      REQUIRE(out[b * block + t] == static_cast<int>(block - 1 - t));
}

std::string failure_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const rl::sim::KernelError& e) {
    return e.what();
  }
  FAIL("no KernelError was thrown");
  return {};
}

}  // namespace

TEST_CASE("divergent __syncthreads is reported with kernel, block, thread and both lines",
          "[errors]") {
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 1));
  std::vector<int> out(4 * 64);
  const std::string msg = failure_of([&] {
    rl::sim::launch("divergent_barrier", divergent_barrier, dim3(4), dim3(64), 0, out.data());
  });
  CHECK_THAT(msg, Contains("sim: kernel 'divergent_barrier' block (2,0,0) thread (0,0,0)"));
  CHECK_THAT(msg, Contains("different __syncthreads"));
  CHECK_THAT(msg, Contains("threads 32-63 at test_errors.cpp:" + std::to_string(g_line_a)));
  CHECK_THAT(msg, Contains("threads 0-31 at test_errors.cpp:" + std::to_string(g_line_b)));
  CHECK(msg.find('\n') == std::string::npos);
  check_still_works();
}

TEST_CASE("a barrier that threads skip by returning is reported", "[errors]") {
  for (const auto& opts : simtest::every_schedule(1)) {
    simtest::ScopedOptions scoped(opts);
    std::vector<int> out(64);
    const std::string msg = failure_of([&] {
      rl::sim::launch("early_return_barrier", early_return_barrier, dim3(1), dim3(64), 0,
                      out.data());
    });
    CHECK_THAT(msg, Contains("sim: kernel 'early_return_barrier' block (0,0,0) thread (0,0,0)"));
    CHECK_THAT(msg, Contains("__syncthreads at test_errors.cpp:" + std::to_string(g_line_c) +
                             " is not reached by threads 40-63 of the block, which exited"));
  }
  check_still_works();
}

TEST_CASE("a shuffle whose mask names an exited lane is reported", "[errors]") {
  for (const auto& opts : simtest::every_schedule(1)) {
    simtest::ScopedOptions scoped(opts);
    std::vector<float> out(32);
    const std::string msg = failure_of([&] {
      rl::sim::launch("shuffle_with_exited_lane", shuffle_with_exited_lane, dim3(1), dim3(32), 0,
                      out.data());
    });
    CHECK_THAT(msg, Contains("sim: kernel 'shuffle_with_exited_lane' block (0,0,0) thread ("));
    CHECK_THAT(msg, Contains("__shfl_down_sync at test_errors.cpp:"));
    CHECK_THAT(msg, Contains("mask 0xffffffff"));
    CHECK_THAT(msg, Contains("5 named in the mask exited"));
  }
  check_still_works();
}

TEST_CASE("warp collective misuse: lane outside its mask, lanes that do not exist, mixed kinds",
          "[errors]") {
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 1));
  std::vector<int> out(64);
  CHECK_THAT(failure_of([&] {
               rl::sim::launch("lane_not_in_mask", lane_not_in_mask, dim3(1), dim3(32), 0,
                               out.data());
             }),
             Contains("thread (0,0,0): __ballot_sync at test_errors.cpp:") &&
                 Contains("the calling lane 0 is not in the mask"));
  CHECK_THAT(failure_of([&] {
               rl::sim::launch("mask_beyond_partial_warp", mask_beyond_partial_warp, dim3(1),
                               dim3(40), 0, out.data());
             }),
             Contains("thread (32,0,0)") && Contains("lanes 8-31 named in the mask do not exist"));
  CHECK_THAT(
      failure_of([&] {
        rl::sim::launch("mixed_collectives", mixed_collectives, dim3(1), dim3(32), 0, out.data());
      }),
      Contains("wait at different warp collectives") && Contains("lanes 0-15 at __shfl_xor_sync") &&
          Contains("lanes 16-31 at __ballot_sync"));
  check_still_works();
}

TEST_CASE(
    "checked_span reports an out-of-range index with kernel, block, thread, name, index, length",
    "[errors]") {
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 1));
  std::vector<float> data(40, 1.0f), out(64);
  const std::string msg = failure_of([&] {
    rl::sim::launch("span_reader", span_reader, dim3(2), dim3(32), 0, data.data(), 40ull,
                    out.data());
  });
  CHECK_THAT(msg, Contains("sim: kernel 'span_reader' block (1,0,0) thread (8,0,0)"));
  CHECK_THAT(msg, Contains("checked_span 'input': index 40 is out of range (length 40)"));

  const std::string neg = failure_of([&] {
    rl::sim::launch("span_negative", span_negative, dim3(1), dim3(8), 0, data.data(), out.data());
  });
  CHECK_THAT(
      neg, Contains("thread (0,0,0)") && Contains("'table': index -3 is out of range (length 8)"));

  // In range: no error, values pass through.
  std::vector<float> ok_out(40, 0.0f);
  rl::sim::launch("span_reader", span_reader, dim3(1), dim3(40), 0, data.data(), 40ull,
                  ok_out.data());
  CHECK(ok_out == data);
  check_still_works();
}

TEST_CASE("exceptions and kernel_error stop the launch and unwind every thread", "[errors]") {
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order, 1, 2));
  std::vector<int> out(256);
  CHECK_THAT(
      failure_of([&] {
        rl::sim::launch("throws_exception", throws_exception, dim3(4), dim3(64), 0, out.data());
      }),
      Contains(
          "sim: kernel 'throws_exception' block (1,0,0) thread (3,0,0): uncaught exception: boom"));
  g_alive = 0;
  CHECK_THAT(failure_of([&] {
               rl::sim::launch("unwinds_locals", unwinds_locals, dim3(1), dim3(64), 0, out.data());
             }),
             Contains("sim: kernel 'unwinds_locals' block (0,0,0) thread (7,0,0): custom failure"));
  CHECK(g_alive == 0);  // threads 0-6 waited at the barrier, 8-63 never started; all destroyed
  check_still_works();
}

TEST_CASE("impossible launch configurations throw std::invalid_argument", "[errors]") {
  std::vector<int> out(2048);
  CHECK_THROWS_AS(rl::sim::launch("healthy", healthy, dim3(1), dim3(1025), 0, out.data()),
                  std::invalid_argument);
  CHECK_THROWS_AS(rl::sim::launch("healthy", healthy, dim3(1), dim3(0), 0, out.data()),
                  std::invalid_argument);
  CHECK_THROWS_AS(rl::sim::launch("healthy", healthy, dim3(1), dim3(32, 32, 2), 0, out.data()),
                  std::invalid_argument);
  CHECK_THROWS_AS(rl::sim::launch("healthy", healthy, dim3(0, 1, 1), dim3(32), 0, out.data()),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      rl::sim::launch("healthy", healthy, dim3(1), dim3(32), 228 * 1024 + 1, out.data()),
      std::invalid_argument);
  CHECK_THROWS_WITH(rl::sim::launch("healthy", healthy, dim3(1), dim3(1025), 0, out.data()),
                    Contains("sim: launch of kernel 'healthy'") && Contains("1025"));
  check_still_works();
}
