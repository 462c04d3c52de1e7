// The race detector's model of CUDA's memory ordering across blocks (race_detector.h, README.md
// "Memory ordering across blocks") on small hand-written kernels: a write by one block and a read by
// another are ordered only by a release (__threadfence() before the atomic) linked to an acquire
// (__threadfence() after the atomic read) through one atomic location and its release sequence, by a
// kernel boundary, a cluster barrier, or cudaGridDependencySynchronize(); and late visibility shows
// the unordered read's stale value.
#include <cooperative_groups.h>
#include <catch2/catch.hpp>
#include <cuda/atomic>

#include <atomic>
#include <numeric>
#include <string>
#include <vector>

#include "common/cuda_compat.h"
#include "schedules.h"

using rl::sim::GlobalView;

namespace {

std::atomic<int> line_write{0}, line_read{0}, line_ticket{0}, line_fence{0};

std::string at(int line) { return "test_memory_order.cpp:" + std::to_string(line); }

rl::sim::Options checking(unsigned host_threads = 1) {
  rl::sim::Options o = simtest::make_options(rl::sim::Schedule::lane_order, 1, host_threads);
  o.racecheck = true;
  return o;
}

template <class Launch>
std::string report_of(Launch&& launch) {
  try {
    launch();
  } catch (const rl::sim::KernelError& e) {
    return e.what();
  }
  return "";
}

// Lesson 12's finish in miniature: each block's thread 0 publishes partials[block], takes a ticket;
// the block with the last ticket adds every partial. Release: the fence between the write and the
// ticket; Acquire: the fence between the ticket and the reads. `unfenced_block`: that block alone
// skips its release (-1: none does).
template <bool Release, bool Acquire>
__global__ void ticket_finish(GlobalView<float> partials, GlobalView<float> out, unsigned* ticket,
                              int unfenced_block) {
  if (threadIdx.x != 0) return;
  line_write = __LINE__, partials[blockIdx.x] = static_cast<float>(blockIdx.x + 1);
  if (Release && static_cast<int>(blockIdx.x) != unfenced_block) __threadfence();
  line_ticket = __LINE__;
  const bool last = atomicInc(ticket, gridDim.x - 1) == gridDim.x - 1;
  if (!last) return;
  if (Acquire) __threadfence();
  float total = 0.0f;
  for (unsigned b = 0; b < gridDim.x; ++b) line_read = __LINE__, total += partials[b];
  out[0] = total;
}

struct Finish {
  std::vector<float> partials;
  std::vector<float> out{0.0f};
  unsigned ticket = 0;
  explicit Finish(unsigned grid) : partials(grid, 0.0f) {
    rl::sim::name_memory(partials.data(), partials.size() * sizeof(float), "partials");
    rl::sim::name_memory(out.data(), sizeof(float), "out");
  }
  ~Finish() {
    rl::sim::name_memory(partials.data(), partials.size() * sizeof(float), "");
    rl::sim::name_memory(out.data(), sizeof(float), "");
  }
  Finish(const Finish&) = delete;
  Finish& operator=(const Finish&) = delete;
  template <bool Release, bool Acquire>
  std::string run(unsigned grid, int unfenced_block = -1) {
    return report_of([&] {
      rl::sim::launch("ticket_finish", ticket_finish<Release, Acquire>, dim3(grid), dim3(32), 0,
                      GlobalView<float>(partials.data()), GlobalView<float>(out.data()), &ticket,
                      unfenced_block);
    });
  }
};

float expected_total(unsigned grid) { return static_cast<float>(grid * (grid + 1) / 2); }

}  // namespace

TEST_CASE("memory order: a fenced ticket finish is race-free and right", "[racecheck][memorder]") {
  for (unsigned host_threads : {1u, 2u, 4u}) {
    simtest::ScopedOptions scoped(checking(host_threads));
    for (unsigned grid : {2u, 7u, 64u}) {
      Finish f(grid);
      CHECK(f.run<true, true>(grid).empty());
      CHECK(f.out[0] == expected_total(grid));
      CHECK(f.ticket == 0u);  // atomicInc wrapped it back
    }
  }
}

TEST_CASE("memory order: relaxed atomics alone order nothing; each missing fence is named",
          "[racecheck][memorder]") {
  // One host thread: block 0 runs to its end before block 1 starts, so block 1 takes the last
  // ticket and its first read, partials[0], is the race.
  simtest::ScopedOptions scoped(checking());
  const std::string head =
      "sim: kernel 'ticket_finish' block (1,0,0) thread (0,0,0): racecheck: "
      "read-after-write race on partials[0] across blocks: block (0,0,0) "
      "thread 0 wrote it at ";
  Finish f(2);
  const std::string none = f.run<false, false>(2);
  const std::string release_missing =
      "the release missing (no __threadfence() in block (0,0,0) after the write and before the "
      "atomic that signals it)";
  CHECK(none == head + at(line_write) + ", then block (1,0,0) thread 0 read it at " +
                    at(line_read) + ", with " + release_missing +
                    " and the acquire missing (no __threadfence() in block (1,0,0) after its "
                    "atomicInc at " +
                    at(line_ticket + 1) + " and before the read)");
  Finish g(2);
  const std::string no_release = g.run<false, true>(2);
  CHECK(no_release == head + at(line_write) + ", then block (1,0,0) thread 0 read it at " +
                          at(line_read) + ", with " + release_missing);
  Finish h(2);
  const std::string no_acquire = h.run<true, false>(2);
  CHECK(no_acquire ==
        head + at(line_write) + ", then block (1,0,0) thread 0 read it at " + at(line_read) +
            ", with the acquire missing (no __threadfence() in block (1,0,0) after its atomicInc "
            "at " +
            at(line_ticket + 1) + " and before the read)");
}

TEST_CASE(
    "memory order: one increment synchronises with every earlier release through the "
    "release sequence",
    "[racecheck][memorder]") {
  simtest::ScopedOptions scoped(checking());
  // Eight blocks, each a release and one atomicInc: the last block's increment reads the value the
  // seventh wrote, which continues the release sequences the six before it head.
  Finish f(8);
  CHECK(f.run<true, true>(8).empty());
  CHECK(f.out[0] == expected_total(8));
  // Block 3 alone without its release: its partial, and no other, is the race.
  Finish g(8);
  const std::string r = g.run<true, true>(8, 3);
  CHECK_THAT(r, Catch::StartsWith("sim: kernel 'ticket_finish' block (7,0,0) thread (0,0,0): "
                                  "racecheck: read-after-write race on partials[3] across blocks: "
                                  "block (3,0,0) thread 0 wrote it at " +
                                  at(line_write)) &&
                    Catch::EndsWith("with the release missing (no __threadfence() in block "
                                    "(3,0,0) after the write and before the atomic that "
                                    "signals it)"));
}

namespace {

// Two blocks and two atomic locations: block 0 releases through `a`; block 1 acquires through `b`.
// Each is a correct half, but no atomic links them.
__global__ void unlinked(GlobalView<float> data, unsigned* a, unsigned* b) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 1.0f;
    __threadfence();
    atomicAdd(a, 1u);
  } else {
    atomicAdd(b, 1u);
    __threadfence();
    line_read = __LINE__, data[1] = data[0];
  }
}

// Lesson 20's shape: every warp's lane 0 writes its partial and fences; after a barrier thread 0
// takes the ticket; the last block's thread 0 fences after it, and after a barrier every thread
// reads. A fence.sc orders across the barrier both ways (README.md). `OnlyThreadZeroFences`: the
// other writers skip their fence, so thread 0's release (before the barrier) does not cover them.
template <bool OnlyThreadZeroFences>
__global__ void barrier_handoff(GlobalView<float> partials, GlobalView<float> out,
                                unsigned* ticket) {
  __shared__ bool last;
  const unsigned warp = threadIdx.x / 32, warps = blockDim.x / 32;
  if (threadIdx.x % 32 == 0) {
    line_write = __LINE__, partials[blockIdx.x * warps + warp] = 1.0f;
    if (!OnlyThreadZeroFences || threadIdx.x == 0) __threadfence();
  }
  __syncthreads();
  if (threadIdx.x == 0) last = atomicInc(ticket, gridDim.x - 1) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  if (threadIdx.x == 32) __threadfence();  // a thread other than the one that took the ticket
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (unsigned k = 0; k < gridDim.x * warps; ++k) line_read = __LINE__, total += partials[k];
    out[0] = total;
  }
}

}  // namespace

TEST_CASE("memory order: a release and an acquire through different atomics are not linked",
          "[racecheck][memorder]") {
  simtest::ScopedOptions scoped(checking());
  std::vector<float> data(2, 0.0f);
  unsigned a = 0, b = 0;
  const std::string r = report_of([&] {
    rl::sim::launch("unlinked", unlinked, dim3(2), dim3(32), 0, GlobalView<float>(data.data()), &a,
                    &b);
  });
  CHECK_THAT(r,
             Catch::Contains("read-after-write race on global[0] across blocks: block (0,0,0)") &&
                 Catch::Contains("then block (1,0,0) thread 0 read it at " + at(line_read)) &&
                 Catch::EndsWith("with a release in block (0,0,0) and an acquire in block "
                                 "(1,0,0) that no atomic links: the acquire's atomic read did "
                                 "not read the value of an atomic written after that release "
                                 "(or of a read-modify-write after it)"));
}

TEST_CASE("memory order: fences order across a barrier; a release covers only what precedes it",
          "[racecheck][memorder]") {
  constexpr unsigned grid = 3, block = 128;
  for (unsigned host_threads : {1u, 3u}) {
    simtest::ScopedOptions scoped(checking(host_threads));
    std::vector<float> partials(grid * block / 32, 0.0f), out(1, 0.0f);
    unsigned ticket = 0;
    CHECK(report_of([&] {
            rl::sim::launch("barrier_handoff<false>", barrier_handoff<false>, dim3(grid),
                            dim3(block), 0, GlobalView<float>(partials.data()),
                            GlobalView<float>(out.data()), &ticket);
          }).empty());
    CHECK(out[0] == static_cast<float>(grid * block / 32));
  }
  simtest::ScopedOptions scoped(checking());
  std::vector<float> partials(grid * block / 32, 0.0f), out(1, 0.0f);
  unsigned ticket = 0;
  const std::string r = report_of([&] {
    rl::sim::launch("barrier_handoff<true>", barrier_handoff<true>, dim3(grid), dim3(block), 0,
                    GlobalView<float>(partials.data()), GlobalView<float>(out.data()), &ticket);
  });
  // partials[0], thread 0's, is covered by its release; partials[1], warp 1's lane 0's, is not.
  CHECK_THAT(r, Catch::Contains("race on global[1] across blocks: block (0,0,0) thread 32 wrote it "
                                "at " +
                                at(line_write) + ", then block (2,0,0) thread 0 read it at " +
                                at(line_read) + ", with the release missing"));
}

namespace {

__global__ void write_own(GlobalView<float> data) {
  if (threadIdx.x == 0) data[blockIdx.x] = static_cast<float>(blockIdx.x + 1);
}
__global__ void read_other(GlobalView<float> data, GlobalView<float> out) {
  if (threadIdx.x == 0) line_read = __LINE__, out[blockIdx.x] = data[(blockIdx.x + 1) % gridDim.x];
}
// The same in one kernel: nothing orders block 1's write before block 0's read.
__global__ void write_then_read(GlobalView<float> data, GlobalView<float> out) {
  if (threadIdx.x != 0) return;
  line_write = __LINE__, data[blockIdx.x] = static_cast<float>(blockIdx.x + 1);
  if (blockIdx.x == 1) line_read = __LINE__, out[0] = data[0];
}

}  // namespace

TEST_CASE("memory order: a kernel boundary orders everything before it", "[racecheck][memorder]") {
  simtest::ScopedOptions scoped(checking(2));
  std::vector<float> data(4, 0.0f), out(4, 0.0f);
  CHECK(report_of([&] {
          rl::sim::launch("write_own", write_own, dim3(4), dim3(32), 0,
                          GlobalView<float>(data.data()));
          rl::sim::launch("read_other", read_other, dim3(4), dim3(32), 0,
                          GlobalView<float>(data.data()), GlobalView<float>(out.data()));
        }).empty());
  CHECK(out == std::vector<float>{2.0f, 3.0f, 4.0f, 1.0f});
  simtest::ScopedOptions one(checking(1));
  const std::string r = report_of([&] {
    rl::sim::launch("write_then_read", write_then_read, dim3(2), dim3(32), 0,
                    GlobalView<float>(data.data()), GlobalView<float>(out.data()));
  });
  CHECK_THAT(r, Catch::Contains("read-after-write race on global[0] across blocks: block (0,0,0) "
                                "thread 0 wrote it at " +
                                at(line_write) + ", then block (1,0,0) thread 0 read it at " +
                                at(line_read)));
}

namespace {

__global__ void produce(GlobalView<float> data) {
  if (threadIdx.x == 0) line_write = __LINE__, data[blockIdx.x] = 2.0f;
}
template <bool Sync>
__global__ void consume(GlobalView<float> data, GlobalView<float> out) {
  if constexpr (Sync) cudaGridDependencySynchronize();
  if (threadIdx.x == 0) line_read = __LINE__, out[blockIdx.x] = data[blockIdx.x];
}

// Cluster of two: rank 1 writes a global word that rank 0 reads, with or without a cluster barrier
// between them.
template <bool Barrier>
__global__ void cluster_handoff(GlobalView<float> data, GlobalView<float> out) {
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 1 && threadIdx.x == 0) line_write = __LINE__, data[0] = 5.0f;
  if constexpr (Barrier) cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) line_read = __LINE__, out[0] = data[0];
}

}  // namespace

TEST_CASE("memory order: cudaGridDependencySynchronize orders a dependent grid after its primary",
          "[racecheck][memorder]") {
  simtest::ScopedOptions scoped(checking(1));
  rl::sim::LaunchAttributes pdl;
  pdl.programmatic_dependency = true;
  std::vector<float> data(2, 0.0f), out(2, 0.0f);
  CHECK(report_of([&] {
          rl::sim::launch_ex("produce", produce, dim3(2), dim3(32), 0, rl::sim::LaunchAttributes{},
                             GlobalView<float>(data.data()));
          rl::sim::launch_ex("consume<true>", consume<true>, dim3(2), dim3(32), 0, pdl,
                             GlobalView<float>(data.data()), GlobalView<float>(out.data()));
          rl::sim::synchronize();
        }).empty());
  CHECK(out == std::vector<float>{2.0f, 2.0f});
  // Without it the dependent's first block reads before the primary writes: the primary's write is
  // the race.
  const std::string r = report_of([&] {
    rl::sim::launch_ex("produce", produce, dim3(2), dim3(32), 0, rl::sim::LaunchAttributes{},
                       GlobalView<float>(data.data()));
    rl::sim::launch_ex("consume<false>", consume<false>, dim3(2), dim3(32), 0, pdl,
                       GlobalView<float>(data.data()), GlobalView<float>(out.data()));
    rl::sim::synchronize();
  });
  CHECK_THAT(r, Catch::Contains("sim: kernel 'produce' block (0,0,0)") &&
                    Catch::Contains("write-after-read race on global[0] across blocks: the other "
                                    "grid's block (0,0,0) thread 0 read it at " +
                                    at(line_read)) &&
                    Catch::Contains("no cudaGridDependencySynchronize() between them"));
}

TEST_CASE("memory order: a cluster barrier orders its blocks' global accesses",
          "[racecheck][memorder]") {
  simtest::ScopedOptions scoped(checking(1));
  rl::sim::LaunchAttributes two;
  two.cluster_x = 2;
  std::vector<float> data(1, 0.0f), out(1, 0.0f);
  CHECK(report_of([&] {
          rl::sim::launch_ex("cluster_handoff<true>", cluster_handoff<true>, dim3(2), dim3(32), 0,
                             two, GlobalView<float>(data.data()), GlobalView<float>(out.data()));
          rl::sim::synchronize();
        }).empty());
  CHECK(out[0] == 5.0f);
  CHECK_THAT(report_of([&] {
               rl::sim::launch_ex("cluster_handoff<false>", cluster_handoff<false>, dim3(2),
                                  dim3(32), 0, two, GlobalView<float>(data.data()),
                                  GlobalView<float>(out.data()));
               rl::sim::synchronize();
             }),
             Catch::Contains("race on global[0] across blocks"));
}

TEST_CASE(
    "memory order: late visibility gives the unfenced finish a wrong total, the fenced one "
    "the right one",
    "[memorder]") {
  for (unsigned host_threads : {1u, 2u, 4u}) {
    rl::sim::Options o = simtest::make_options(rl::sim::Schedule::lane_order, 1, host_threads);
    o.late_visibility = true;  // no race checking: the kernels run to their end
    simtest::ScopedOptions scoped(o);
    constexpr unsigned grid = 16;
    INFO("host threads " << host_threads);
    Finish fenced(grid);
    CHECK(fenced.run<true, true>(grid).empty());
    CHECK(fenced.out[0] == expected_total(grid));
    // Without the release, the acquire, or both, the last block sees only its own partial (the
    // others still read as the 0 they held before the launch).
    Finish none(grid), no_release(grid), no_acquire(grid);
    CHECK(none.run<false, false>(grid).empty());
    CHECK(no_release.run<false, true>(grid).empty());
    CHECK(no_acquire.run<true, false>(grid).empty());
    for (const Finish* f : {&none, &no_release, &no_acquire}) {
      CHECK(f->out[0] != expected_total(grid));
      // exactly one partial counted: the last block's own, one of 1..grid
      CHECK(f->out[0] >= 1.0f);
      CHECK(f->out[0] <= static_cast<float>(grid));
    }
    // Memory holds every write once the grid has ended: only other blocks' reads were late.
    CHECK(none.partials[grid - 1] != 0.0f);
    std::vector<float> ones(grid);
    std::iota(ones.begin(), ones.end(), 1.0f);
    CHECK(none.partials == ones);
  }
  // Off, the simulator's blocks see each other's writes at once: the unfenced finish is right.
  simtest::ScopedOptions off(simtest::make_options(rl::sim::Schedule::lane_order, 1, 1));
  Finish plain(16);
  CHECK(plain.run<false, false>(16).empty());
  CHECK(plain.out[0] == expected_total(16));
}

namespace {

std::atomic<int> line_ref_ticket{0};

// The same finish with no __threadfence(): the ticket is a cuda::atomic_ref at device scope whose
// memory order does the fencing. Writers take their ticket with `Writer`, so a release order
// publishes their partial; the block that takes the last one has taken it with the same order, and
// an acquire order lets it read every partial.
template <cuda::memory_order Writer>
__global__ void ref_ticket_finish(GlobalView<float> partials, GlobalView<float> out,
                                  unsigned* ticket) {
  if (threadIdx.x != 0) return;
  partials[blockIdx.x] = static_cast<float>(blockIdx.x + 1);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
  unsigned taken = 0;
  line_ref_ticket = __LINE__, taken = t.fetch_add(1u, Writer);
  if (taken != gridDim.x - 1) return;
  float total = 0.0f;
  for (unsigned b = 0; b < gridDim.x; ++b) total += partials[b];
  out[0] = total;
}

template <cuda::memory_order Writer>
std::string run_ref(Finish& f, unsigned grid) {
  f.ticket = 0;
  return report_of([&] {
    rl::sim::launch("ref_ticket_finish", ref_ticket_finish<Writer>, dim3(grid), dim3(32), 0,
                    GlobalView<float>(f.partials.data()), GlobalView<float>(f.out.data()),
                    &f.ticket);
  });
}

}  // namespace

TEST_CASE(
    "memory order: cuda::atomic_ref's orders are its fences (acq_rel orders, relaxed does not)",
    "[racecheck][memorder]") {
  for (unsigned host_threads : {1u, 4u}) {
    simtest::ScopedOptions scoped(checking(host_threads));
    for (unsigned grid : {2u, 8u, 64u}) {
      INFO("grid " << grid << ", host threads " << host_threads);
      Finish f(grid);
      CHECK(run_ref<cuda::memory_order_acq_rel>(f, grid).empty());
      CHECK(f.out[0] == expected_total(grid));
      Finish g(grid);
      CHECK(run_ref<cuda::memory_order_seq_cst>(g, grid).empty());
      CHECK(g.out[0] == expected_total(grid));
    }
  }
  simtest::ScopedOptions scoped(checking());
  Finish f(2);
  const std::string relaxed = run_ref<cuda::memory_order_relaxed>(f, 2);
  CHECK_THAT(relaxed, Catch::Contains("read-after-write race on partials[0] across blocks") &&
                          Catch::Contains("the release missing") &&
                          Catch::Contains("the acquire missing"));
  // the message names both fixes: a fence, or the order on the atomic_ref itself
  CHECK_THAT(relaxed,
             Catch::Contains("nor a release order on that atomic)") &&
                 Catch::Contains("nor an acquire order on the atomic that read the signal)"));
  // Release only: the partials are published, but the last block's reads are not ordered after
  // its ticket.
  Finish g(2);
  const std::string release_only = run_ref<cuda::memory_order_release>(g, 2);
  CHECK_THAT(release_only, Catch::Contains("race on partials[0] across blocks") &&
                               Catch::Contains("the acquire missing") &&
                               !Catch::Contains("the release missing"));
  CHECK_THAT(release_only, Catch::Contains(at(line_ref_ticket)));
  // Acquire only: the last block acquires, but block 0's fence comes after its ticket, so no
  // atomic write carries a release of its partial.
  Finish h(2);
  const std::string acquire_only = run_ref<cuda::memory_order_acquire>(h, 2);
  CHECK_THAT(acquire_only, Catch::Contains("race on partials[0] across blocks") &&
                               Catch::Contains("no atomic links") &&
                               !Catch::Contains("the acquire missing"));
}

// A grade tells a handover ordered by the ticket's own memory order from one ordered by fences
// (lesson 12's ordered_ticket): the simulator counts the __threadfence() calls of kernel code, not
// the fences an atomic_ref's order stands for.
TEST_CASE("memory order: the __threadfence() calls are counted, an atomic_ref's orders are not",
          "[racecheck][memorder]") {
  for (bool racecheck : {false, true}) {
    INFO("race checking " << racecheck);
    simtest::ScopedOptions scoped(racecheck ? checking(4) : rl::sim::options());
    Finish f(8);
    rl::sim::reset_fences_called();
    CHECK(run_ref<cuda::memory_order_acq_rel>(f, 8).empty());
    CHECK(rl::sim::fences_called().count == 0);
    CHECK(rl::sim::fences_called().lowest_line == 0);
    Finish g(8);
    g.ticket = 0;
    report_of([&] {
      rl::sim::launch("ticket_finish", ticket_finish<true, true>, dim3(8), dim3(32), 0,
                      GlobalView<float>(g.partials.data()), GlobalView<float>(g.out.data()),
                      &g.ticket, -1);
    });
    CHECK(g.out[0] == expected_total(8));
    // eight releases and the last block's acquire; the lowest line is the release's
    CHECK(rl::sim::fences_called().count == 9);
    CHECK(rl::sim::fences_called().lowest_line == static_cast<unsigned>(line_write.load() + 1));
    rl::sim::reset_fences_called();
    CHECK(rl::sim::fences_called().count == 0);
  }
}

namespace {

// The acq_rel finish at block scope: a block-scope order says nothing to other blocks.
__global__ void block_scope_finish(GlobalView<float> partials, GlobalView<float> out,
                                   unsigned* ticket) {
  if (threadIdx.x != 0) return;
  partials[blockIdx.x] = 1.0f;
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> t(*ticket);
  if (t.fetch_add(1u, cuda::memory_order_acq_rel) != gridDim.x - 1) return;
  out[0] = partials[0] + partials[1];
}

}  // namespace

TEST_CASE("memory order: a block-scope cuda::atomic_ref orders nothing across blocks",
          "[racecheck][memorder]") {
  simtest::ScopedOptions scoped(checking());
  Finish f(2);
  f.ticket = 0;
  const std::string r = report_of([&] {
    rl::sim::launch("block_scope_finish", block_scope_finish, dim3(2), dim3(32), 0,
                    GlobalView<float>(f.partials.data()), GlobalView<float>(f.out.data()),
                    &f.ticket);
  });
  CHECK_THAT(r, Catch::Contains("race on partials[0] across blocks"));
}
