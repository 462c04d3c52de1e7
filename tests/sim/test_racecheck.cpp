// The race detector (common/sim/race_detector.h) on hand-written kernels: what orders two accesses
// (a block barrier; a __syncwarp between the lanes it names; program order), what is a race
// (read and write, or two writes, by different threads with nothing ordering them), how the report
// reads, and that it is the same report every time.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <vector>

#include "common/cuda_compat.h"
#include "schedules.h"

using rl::sim::GlobalView;
using rl::sim::SharedView;
using rl::sim::VolatileSharedView;

namespace {

// The source lines of the statements under test, recorded by the kernels themselves.
std::atomic<int> line_a{0}, line_b{0};

rl::sim::Options checking(rl::sim::Schedule s = rl::sim::Schedule::lane_order,
                          unsigned host_threads = 1) {
  rl::sim::Options o = simtest::make_options(s, 1, host_threads);
  o.racecheck = true;
  return o;
}

// Runs the launch; returns the KernelError's report, or "" when the launch succeeds.
template <class Launch>
std::string report_of(Launch&& launch) {
  try {
    launch();
  } catch (const rl::sim::KernelError& e) {
    return e.what();
  }
  return "";
}

std::string at(int line) { return "test_racecheck.cpp:" + std::to_string(line); }

// Every thread writes its slot, then reads its neighbour's: a barrier between them, or not.
template <bool Barrier>
__global__ void neighbour(float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  line_a = __LINE__, s[tid] = static_cast<float>(tid);
  if constexpr (Barrier) __syncthreads();
  line_b = __LINE__, out[tid] = s[(tid + 1) % blockDim.x];
}

// Two threads write one slot (write-after-write), with or without a barrier between the writes.
template <bool Barrier>
__global__ void two_writers(float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  if (tid == 1) line_a = __LINE__, s[3] = 1.0f;
  if constexpr (Barrier) __syncthreads();
  if (tid == 2) line_b = __LINE__, s[3] = 2.0f;
  __syncthreads();
  if (tid == 0) out[0] = s[3];
}

// One thread reads and writes its own slot many times: program order, never a race.
__global__ void own_slot(float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  s[tid] = 1.0f;
  for (int k = 0; k < 5; ++k) s[tid] += s[tid];
  out[tid] = s[tid];
}

// Everyone reads slot 0 that thread 0 wrote before the barrier: reads never race with reads.
__global__ void broadcast(float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  if (tid == 0) s[0] = 42.0f;
  __syncthreads();
  out[tid] = s[0] + s[0];
}

// Within warp 0: lanes write their slot, a __syncwarp with `mask` (every lane calls one with the
// mask of its own half when Halves), then lane i reads lane `(i + shift) % 32`'s slot.
template <bool Halves>
__global__ void warp_exchange(float* out, unsigned shift) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned lane = threadIdx.x;
  line_a = __LINE__, s[lane] = static_cast<float>(lane);
  if constexpr (Halves)
    __syncwarp(lane < 16 ? 0x0000ffffu : 0xffff0000u);
  else
    __syncwarp();
  line_b = __LINE__, out[lane] = s[(lane + shift) % 32];
}

// The same exchange ordered by a shuffle or a vote instead of __syncwarp, or by nothing.
enum class Order { shuffle, ballot, nothing };
template <Order O>
__global__ void ordered_by(float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned lane = threadIdx.x;
  line_a = __LINE__, s[lane] = static_cast<float>(lane);
  float extra = 0.0f;
  if constexpr (O == Order::shuffle) extra = __shfl_down_sync(0xffffffffu, 1.0f, 1);
  if constexpr (O == Order::ballot) extra = static_cast<float>(__ballot_sync(0xffffffffu, 1) != 0);
  line_b = __LINE__, out[lane] = s[(lane + 1) % 32] + extra;
}

// Two warps: warp 1 reads what warp 0 wrote, with a __syncwarp in each warp but no __syncthreads.
__global__ void across_warps(float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  if (tid < 32) line_a = __LINE__, s[tid] = 1.0f;
  __syncwarp();
  if (tid >= 32) line_b = __LINE__, out[tid] = s[tid - 32];
}

// Harris's 2007 warp tail through a volatile view, with or without the __syncwarp pair per level.
template <bool Safe>
__global__ void last_warp(const float* in, float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    if constexpr (!Safe) {
      VolatileSharedView<float> v = s;
      v[tid] = v[tid] + v[tid + 32];
      v[tid] = v[tid] + v[tid + 16];
      v[tid] = v[tid] + v[tid + 8];
      v[tid] = v[tid] + v[tid + 4];
      v[tid] = v[tid] + v[tid + 2];
      v[tid] = v[tid] + v[tid + 1];
    } else {
      for (unsigned stride = 32; stride > 0; stride /= 2) {
        const float x = s[tid] + s[tid + stride];
        __syncwarp();
        s[tid] = x;
        __syncwarp();
      }
    }
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Lesson 05's tail (lessons/05_unroll_last_warp) with each __syncwarp() replaced by a shuffle whose
// result is used: the lanes still meet at every level, but a shuffle orders no memory (CUDA
// documents memory ordering for __syncwarp, none for __shfl_*_sync), so the reads and writes of
// the shared slots race.
template <bool Shuffles>
__global__ void tail_synced_by(const float* in, float* out) {
  SharedView<float> partial = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    float sum = partial[tid];
    float carried = 0.0f;
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      if (tid + stride < blockDim.x) line_a = __LINE__, sum += partial[tid + stride];
      if constexpr (Shuffles)
        carried += __shfl_xor_sync(0xffffffffu, 0.0f, 1);
      else
        __syncwarp();
      line_b = __LINE__, partial[tid] = sum;
      if constexpr (Shuffles)
        carried += __shfl_xor_sync(0xffffffffu, 0.0f, 1);
      else
        __syncwarp();
    }
    sum += carried;  // 0: the shuffles move no data the total needs
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// Lesson 03's tree with its barrier only while the stride is above a warp (or everywhere).
template <bool AboveWarpOnly>
__global__ void tree(const float* in, float* out) {
  SharedView<float> s = rl::dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    if (!AboveWarpOnly || stride > 32) __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// Global memory through a checked view: thread 0 writes out[blockIdx.x], thread 1 reads it back.
template <bool Barrier>
__global__ void global_readback(GlobalView<float> out, float* seen) {
  const unsigned tid = threadIdx.x;
  if (tid == 0) line_a = __LINE__, out[blockIdx.x] = 5.0f;
  if constexpr (Barrier) __syncthreads();
  if (tid == 1) line_b = __LINE__, seen[blockIdx.x] = out[blockIdx.x];
}

// Every block writes out[0], with nothing ordering the blocks: a race across blocks.
__global__ void every_block_writes(GlobalView<float> out) {
  if (threadIdx.x == 0) out[0] = static_cast<float>(blockIdx.x);
}

// A static __shared__ array through a view, written by two lanes of different warps.
__global__ void static_shared(float* out) {
  __shared__ float totals[8];
  SharedView<float> t = totals;
  const unsigned tid = threadIdx.x;
  if (tid % 32 == 0) t[5] = static_cast<float>(tid);
  __syncthreads();
  out[tid] = t[5];
}

// An index below 0 or past the end of dynamic shared memory.
__global__ void out_of_range(float* out, int index) {
  SharedView<float> s = rl::dynamic_shared<float>();
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s[index];
}

}  // namespace

TEST_CASE("racecheck: a barrier orders a write before the reads after it", "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(64);
  CHECK(report_of([&] {
          rl::sim::launch("neighbour<true>", neighbour<true>, dim3(1), dim3(64), 64 * 4,
                          out.data());
        }).empty());
  CHECK(out[0] == 1.0f);
  CHECK(out[63] == 0.0f);
}

TEST_CASE("racecheck: without the barrier, the read of a neighbour's slot is named",
          "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(64);
  const std::string r = report_of([&] {
    rl::sim::launch("neighbour<false>", neighbour<false>, dim3(1), dim3(64), 64 * 4, out.data());
  });
  // Lane order: thread 0 reads slot 1 before thread 1 runs; thread 1's write is the second
  // access.
  CHECK(r ==
        "sim: kernel 'neighbour<false>' block (0,0,0) thread (1,0,0): racecheck: write-after-read "
        "race on "
        "shared[1]: thread 0 read it at " +
            at(line_b) + ", then thread 1 wrote it at " + at(line_a) +
            ", with no __syncwarp naming both lanes (or __syncthreads) between them");
}

TEST_CASE("racecheck: two writes of one slot race unless a barrier separates them", "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(1);
  CHECK(report_of([&] {
          rl::sim::launch("two_writers<true>", two_writers<true>, dim3(1), dim3(64), 64 * 4,
                          out.data());
        }).empty());
  CHECK(out[0] == 2.0f);
  const std::string r = report_of([&] {
    rl::sim::launch("two_writers<false>", two_writers<false>, dim3(1), dim3(64), 64 * 4,
                    out.data());
  });
  CHECK_THAT(r, Catch::Contains("write-after-write race on shared[3]: thread 1 wrote it at " +
                                at(line_a) + ", then thread 2 wrote it at " + at(line_b)));
}

TEST_CASE("racecheck: one thread's own reads and writes, and reads by many, are no race",
          "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(256);
  CHECK(report_of([&] {
          rl::sim::launch("own_slot", own_slot, dim3(2), dim3(256), 256 * 4, out.data());
        }).empty());
  CHECK(out[17] == 32.0f);
  CHECK(report_of([&] {
          rl::sim::launch("broadcast", broadcast, dim3(2), dim3(256), 256 * 4, out.data());
        }).empty());
  CHECK(out[200] == 84.0f);
}

TEST_CASE("racecheck: __syncwarp orders only the lanes its mask names", "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(32);
  // Full mask: any lane may read any other lane's slot after it.
  CHECK(report_of([&] {
          rl::sim::launch("warp_exchange<false>", warp_exchange<false>, dim3(1), dim3(32), 32 * 4,
                          out.data(), 17u);
        }).empty());
  CHECK(out[0] == 17.0f);
  // Half masks: reading within one's half is ordered; lane 15 reading lane 16's slot is not.
  CHECK(report_of([&] {
          rl::sim::launch("warp_exchange<true>", warp_exchange<true>, dim3(1), dim3(32), 32 * 4,
                          out.data(), 0u);
        }).empty());
  const std::string r = report_of([&] {
    rl::sim::launch("warp_exchange<true>", warp_exchange<true>, dim3(1), dim3(32), 32 * 4,
                    out.data(), 1u);
  });
  CHECK_THAT(r, Catch::Contains("thread (15,0,0): racecheck: read-after-write race on shared[16]: "
                                "thread 16 wrote it at " +
                                at(line_a) + ", then thread 15 read it at " + at(line_b)));
}

TEST_CASE("racecheck: shuffles and votes order no memory; only __syncwarp does", "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(32);
  // Lane order: every lane writes its slot and waits at the collective; once it completes, lane 0
  // reads slot 1, which lane 1 wrote before it: unordered unless the collective was __syncwarp.
  using Kernel = void (*)(float*);
  const std::pair<const char*, Kernel> kernels[] = {
      {"ordered_by<shuffle>", ordered_by<Order::shuffle>},
      {"ordered_by<ballot>", ordered_by<Order::ballot>},
      {"ordered_by<nothing>", ordered_by<Order::nothing>}};
  for (const auto& [name, kernel] : kernels) {
    INFO(name);
    const std::string r =
        report_of([&] { rl::sim::launch(name, kernel, dim3(1), dim3(32), 32 * 4, out.data()); });
    if (std::string(name) == "ordered_by<nothing>")
      CHECK_THAT(r, Catch::Contains("write-after-read race on shared[1]: thread 0 read it at " +
                                    at(line_b) + ", then thread 1 wrote it at " + at(line_a)));
    else
      CHECK_THAT(r, Catch::EndsWith("read-after-write race on shared[1]: thread 1 wrote it at " +
                                    at(line_a) + ", then thread 0 read it at " + at(line_b) +
                                    ", with no __syncwarp naming both lanes (or __syncthreads) "
                                    "between them"));
  }
}

TEST_CASE("racecheck: lesson 05's tail with shuffles in place of __syncwarp races, with both lines",
          "[racecheck]") {
  constexpr unsigned block = 64;
  std::vector<float> in(block, 1.0f), out(1);
  for (const auto& o : simtest::every_schedule(1)) {
    rl::sim::Options opts = o;
    opts.racecheck = true;
    simtest::ScopedOptions scoped(opts);
    INFO(simtest::describe(o));
    CHECK(report_of([&] {
            rl::sim::launch("tail_synced_by<false>", tail_synced_by<false>, dim3(1), dim3(block),
                            block * 4, in.data(), out.data());
          }).empty());
    CHECK(out[0] == 64.0f);
    const std::string r = report_of([&] {
      rl::sim::launch("tail_synced_by<true>", tail_synced_by<true>, dim3(1), dim3(block), block * 4,
                      in.data(), out.data());
    });
    // Which pair is found first depends on the order, but it is always a read of a neighbour's
    // slot (the line before the first shuffle) against a write of it (the line after), in one warp.
    CHECK_THAT(r, Catch::Contains("racecheck: ") && Catch::Contains("race on shared[") &&
                      Catch::Contains("with no __syncwarp naming both lanes (or __syncthreads)"));
    CHECK_THAT(r, Catch::Contains("read it at " + at(line_a)) &&
                      Catch::Contains("wrote it at " + at(line_b)));
  }
}

TEST_CASE("racecheck: __syncwarp does not order two warps", "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(64);
  const std::string r = report_of([&] {
    rl::sim::launch("across_warps", across_warps, dim3(1), dim3(64), 64 * 4, out.data());
  });
  // Warp 0 writes and passes its __syncwarp; then warp 1, past its own, reads.
  CHECK_THAT(
      r,
      Catch::EndsWith(
          "thread (32,0,0): racecheck: read-after-write race on shared[0]: thread 0 wrote it at " +
          at(line_a) + ", then thread 32 read it at " + at(line_b) +
          ", with no __syncthreads between them (warps 0 and 1)"));
}

TEST_CASE("racecheck: the volatile warp tail races in every schedule; the __syncwarp tail never",
          "[racecheck]") {
  constexpr unsigned block = 256, grid = 4;
  std::vector<float> in(block * grid, 1.0f), out(grid);
  for (const auto& o : simtest::every_schedule(1)) {
    rl::sim::Options opts = o;
    opts.racecheck = true;
    simtest::ScopedOptions scoped(opts);
    INFO(simtest::describe(o));
    const std::string unsafe = report_of([&] {
      rl::sim::launch("last_warp<false>", last_warp<false>, dim3(grid), dim3(block), block * 4,
                      in.data(), out.data());
    });
    CHECK_THAT(unsafe, Catch::Contains("block (0,0,0)") && Catch::Contains("racecheck: ") &&
                           Catch::Contains("race on shared[") &&
                           Catch::Contains("with no __syncwarp"));
    CHECK(report_of([&] {
            rl::sim::launch("last_warp<true>", last_warp<true>, dim3(grid), dim3(block), block * 4,
                            in.data(), out.data());
          }).empty());
    CHECK(out == std::vector<float>(grid, 256.0f));
  }
}

TEST_CASE("racecheck: a tree whose barrier stops above the warp races", "[racecheck]") {
  constexpr unsigned block = 256, grid = 3;
  std::vector<float> in(block * grid, 1.0f), out(grid);
  simtest::ScopedOptions scoped(checking());
  CHECK(report_of([&] {
          rl::sim::launch("tree<false>", tree<false>, dim3(grid), dim3(block), block * 4, in.data(),
                          out.data());
        }).empty());
  const std::string r = report_of([&] {
    rl::sim::launch("tree<true>", tree<true>, dim3(grid), dim3(block), block * 4, in.data(),
                    out.data());
  });
  // Thread 0 runs strides 32..1 alone, reading slot 1 last; thread 1's first write of it is the
  // race.
  CHECK_THAT(r, Catch::StartsWith(
                    "sim: kernel 'tree<true>' block (0,0,0) thread (1,0,0): racecheck: "
                    "write-after-read race on shared[1]: thread 0 read it at test_racecheck.cpp:"));
}

TEST_CASE("racecheck: the report is the same every time and names the lowest racing block",
          "[racecheck]") {
  constexpr unsigned block = 128, grid = 64;
  std::vector<float> in(block * grid, 1.0f), out(grid);
  std::string first;
  for (unsigned host_threads : {1u, 2u, 4u, 1u, 4u}) {
    simtest::ScopedOptions scoped(checking(rl::sim::Schedule::shuffled, host_threads));
    const std::string r = report_of([&] {
      rl::sim::launch("tree<true>", tree<true>, dim3(grid), dim3(block), block * 4, in.data(),
                      out.data());
    });
    CHECK_THAT(r, Catch::Contains("block (0,0,0)"));
    if (first.empty()) first = r;
    CHECK(r == first);
  }
}

TEST_CASE("racecheck: off, a racy kernel runs to the end unreported", "[racecheck]") {
  simtest::ScopedOptions scoped(simtest::make_options(rl::sim::Schedule::lane_order));
  std::vector<float> out(64);
  CHECK(report_of([&] {
          rl::sim::launch("neighbour<false>", neighbour<false>, dim3(1), dim3(64), 64 * 4,
                          out.data());
        }).empty());
}

TEST_CASE("racecheck: global memory is checked within a block, and across blocks", "[racecheck]") {
  simtest::ScopedOptions scoped(checking(rl::sim::Schedule::lane_order, 2));
  std::vector<float> out(8), seen(8);
  CHECK(report_of([&] {
          rl::sim::launch("global_readback<true>", global_readback<true>, dim3(8), dim3(64), 0,
                          out.data(), seen.data());
        }).empty());
  CHECK(seen[7] == 5.0f);
  const std::string r = report_of([&] {
    rl::sim::launch("global_readback<false>", global_readback<false>, dim3(1), dim3(64), 0,
                    out.data(), seen.data());
  });
  // Reverse order would be the other pair; lane order runs thread 0's write first.
  CHECK_THAT(r, Catch::Contains("read-after-write race on global[0]: thread 0 wrote it at " +
                                at(line_a) + ", then thread 1 read it at " + at(line_b)));
  // One host thread: block 0's write comes first, block 1's is the second access.
  simtest::ScopedOptions one(checking(rl::sim::Schedule::lane_order, 1));
  CHECK_THAT(report_of([&] {
               rl::sim::launch("every_block_writes", every_block_writes, dim3(16), dim3(32), 0,
                               out.data());
             }),
             Catch::Contains("block (1,0,0) thread (0,0,0): racecheck: write-after-write race on "
                             "global[0] across blocks: block (0,0,0) thread 0 wrote it at"));
}

TEST_CASE("racecheck: static __shared__ arrays are checked through a view", "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(128);
  const std::string r = report_of(
      [&] { rl::sim::launch("static_shared", static_shared, dim3(1), dim3(128), 0, out.data()); });
  CHECK_THAT(
      r, Catch::Contains("write-after-write race on __shared__ array[5]: thread 0 wrote it at") &&
             Catch::Contains("then thread 32 wrote it at") && Catch::Contains("(warps 0 and 1)"));
}

TEST_CASE("racecheck: an index outside dynamic shared memory is reported as out of range",
          "[racecheck]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> out(1);
  for (int index : {-1, 64, 65}) {
    const std::string r = report_of([&] {
      rl::sim::launch("out_of_range", out_of_range, dim3(1), dim3(64), 64 * 4, out.data(), index);
    });
    CHECK_THAT(r, Catch::Contains(
                      "thread (0,0,0): out of range: shared[" + std::to_string(index) +
                      "] is outside the block's dynamic shared memory (64 elements, 0 to 63)"));
  }
  CHECK(report_of([&] {
          rl::sim::launch("out_of_range", out_of_range, dim3(1), dim3(64), 64 * 4, out.data(), 63);
        }).empty());
}
