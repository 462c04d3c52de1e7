// Runs one block of a launch on the calling host thread: one fiber per CUDA thread,
// resumed one at a time (in the launch's Schedule order) until each reaches its next
// synchronisation point; implements __syncthreads and the warp collectives and turns
// misuse and deadlock into kernel errors.
#pragma once
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <source_location>
#include <string>
#include <vector>

#include "common/sim/fiber.h"
#include "common/sim/launch_config.h"
#include "common/sim/race_detector.h"
#include "common/sim/racecheck.h"
#include "common/sim/runtime.h"
#include "common/sim/stack_pool.h"
#include "common/sim/tls_ranges.h"

namespace rl::sim::detail {

class Cluster;

class BlockRunner {
 public:
  BlockRunner(const LaunchConfig& config, StackPool& stacks);
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  // Runs the block to completion. Returns the KernelError (as exception_ptr) if the
  // block failed, after every unfinished fiber has been unwound; null on success.
  std::exception_ptr run(uint3 block_index);

  // ---- called from kernel code running on this host thread ----
  int barrier(BarrierOp op, int predicate, const std::source_location& loc);
  std::uint64_t warp(WarpOp op, unsigned mask, std::uint64_t value, std::int64_t arg, int width,
                     const std::source_location& loc);
  unsigned active_mask() const;
  // A checked view's access (racecheck.h): handed to the race detector when the launch checks
  // races; a conflict fails the running thread with the detector's report.
  // A read passes `stale` (racecheck.h's report_access): true back when late visibility put there
  // what the read sees instead of memory.
  bool check_access(const void* address, std::size_t bytes, AccessKind kind, MemorySpace space,
                    const void* base, std::size_t element_bytes, const std::source_location& loc,
                    void* stale);
  // An atomic (the memory model's lock of its location held) and a __threadfence(), for the race
  // detector's order across blocks.
  void note_atomic(const void* address, const char* name, bool wrote,
                   const std::source_location& loc);
  void memory_fence(const std::source_location& loc);
  void* shared_base() const { return smem_; }
  std::size_t shared_bytes() const { return config_.dynamic_smem_bytes; }
  [[noreturn]] void fail(const std::string& what);  // throws KernelError for the current thread
  // For a fault handler: whether an address lies in the inaccessible page after shared memory,
  // and which kernel, block and thread are running.
  bool in_shared_guard(const void* address) const noexcept;
  const char* kernel_name() const noexcept { return config_.kernel_name; }
  uint3 block_index() const noexcept { return block_; }
  std::uint64_t linear_block() const noexcept {
    return block_.x +
           std::uint64_t{config_.grid.x} * (block_.y + std::uint64_t{config_.grid.y} * block_.z);
  }
  uint3 thread_index() const noexcept { return threads_[current_].index; }

  // The runner of the block running on this host thread (null outside a launch).
  static BlockRunner* current() noexcept;

  // ---- clusters and programmatic dependent launch (cluster.cpp) ----
  // Makes this runner rank `rank` of `cluster` for the blocks it runs from now on.
  void join_cluster(Cluster* cluster, unsigned rank);
  ClusterShape cluster_shape() const;
  void cluster_barrier(const std::source_location& loc);
  void cluster_arrive(const std::source_location& loc);
  void cluster_wait(const std::source_location& loc);
  void* map_shared_rank(const void* addr, int rank, bool record, const std::source_location& loc);
  unsigned query_shared_rank(const void* addr, const std::source_location& loc);
  void grid_dependency_sync(const std::source_location& loc);
  // What the cluster asks of its blocks, on the host thread that holds the cluster's turn.
  bool has_ready() const { return !ready_.empty(); }
  bool exited() const { return live_ == 0; }
  unsigned threads() const { return n_; }
  void release_cluster_waiters(const std::source_location& loc);  // a cluster.sync() completed
  void release_dependency_waiters();
  bool waits_for_dependency() const;
  // Threads at cluster.sync(), grouped by call site ("k.cuh:12" -> ids), and the exited ones.
  // `syncs`: only those at cluster.sync() (not at the barrier_wait() of a split barrier).
  std::vector<std::pair<std::string, std::vector<unsigned>>> cluster_sites(
      bool syncs = false) const;
  bool waits_split() const;  // a thread waits at the barrier_wait() of a split cluster barrier
  std::vector<unsigned> exited_threads() const;
  std::string describe_stuck() const;  // "threads 0-31 wait at ..., threads 32-63 exited"
  std::optional<unsigned> first_waiting_thread() const;
  std::exception_ptr error_of(unsigned thread, const std::string& what) const {
    return make_error(thread, what);
  }
  unsigned current_thread() const { return current_; }
  // Whether [p, p + bytes) is this block's dynamic shared memory, or its static shared memory (the
  // host thread's thread-local storage).
  bool in_dynamic_shared(const void* p, std::size_t bytes) const;
  bool in_static_shared(const void* p, std::size_t bytes);
  const unsigned char* dynamic_shared_begin() const { return smem_; }
  const TlsRanges& tls_ranges();

  // ---- cuda::barrier and bulk copies (bulk_copy.cpp) ----
  void mbarrier_init(MBarrier* bar, std::int64_t expected, const std::source_location& loc);
  std::uint64_t mbarrier_arrive(MBarrier* bar, std::int64_t update, bool drop,
                                const std::source_location& loc);
  void mbarrier_wait(MBarrier* bar, std::uint64_t token, const std::source_location& loc);
  void bulk_copy(void* dst, const void* src, std::size_t bytes, std::size_t align, MBarrier* bar,
                 const std::source_location& loc);

 private:
  // barrier: __syncthreads; warp: a warp collective; cluster: cluster.sync(); dependency:
  // cudaGridDependencySynchronize(); mbarrier: cuda::barrier::wait.
  enum class State : unsigned char { ready, barrier, warp, exited, cluster, dependency, mbarrier };

  // A bulk copy in flight (its bytes land when its barrier's phase completes), and one that landed
  // (kept, with race checking, until the threads that read it are known to have waited).
  struct AsyncCopy {
    MBarrier* bar;
    unsigned char* dst;
    const unsigned char* src;
    std::size_t bytes;
    unsigned thread;
    std::source_location loc;
  };
  struct LandedCopy {
    const MBarrier* bar;
    std::uint64_t phase;  // the phase whose completion wrote it
    unsigned char* dst;
    std::size_t bytes;
    unsigned thread;
    std::source_location loc;
    std::vector<bool> waited;  // per thread: has waited on that phase
  };

  struct Thread {
    Fiber fiber;
    BlockRunner* runner = nullptr;  // what the fiber's body runs: runner->thread_main(id)
    unsigned id = 0;
    uint3 index{};
    State state = State::ready;
    WarpOp op = WarpOp::syncwarp;
    int width = 32;
    unsigned mask = 0;
    std::int64_t arg = 0;
    std::uint64_t value = 0;
    std::uint64_t result = 0;
    std::source_location loc;
    const MBarrier* wait_bar = nullptr;  // State::mbarrier: the barrier and the phase awaited
    std::uint64_t wait_phase = 0;
    bool cluster_arrived = false;     // arrived at the cluster barrier, not yet waited
    std::uint64_t cluster_phase = 0;  // the cluster barrier's phase it arrived at
  };

  std::exception_ptr run_rounds(uint3 block_index);  // run()'s work: the block's scheduling loop
  bool host_turn();  // the run hook's turn between rounds; false: the host stops the run
  void thread_main(unsigned id);
  void thread_exit(unsigned id);
  void yield();
  void set_error(std::exception_ptr e);
  std::exception_ptr make_error(unsigned id, const std::string& what) const;
  void complete_warp_group(unsigned warp, unsigned mask);
  void release_warp_group(unsigned warp, unsigned mask);  // its lanes go on
  void report_sync(unsigned warp, unsigned warp_mask, const std::source_location& loc) const;
  unsigned lanes_in_warp(unsigned warp) const;
  void order_round();
  std::exception_ptr deadlock_report() const;
  std::string describe_waits(const std::vector<unsigned>& ids) const;
  void complete_warp_reduction(unsigned warp, unsigned mask, WarpOp op);
  void arrive_at_cluster_barrier(const std::source_location& loc, bool sync);
  std::uint64_t cluster_phase() const;
  MBarrier& checked_barrier(MBarrier* bar, const std::string& where);
  void complete_phase(MBarrier* bar);
  void note_waited(unsigned thread, const MBarrier* bar, std::uint64_t token);
  std::optional<std::string> async_copy_conflict(const void* address, std::size_t bytes,
                                                 AccessKind kind) const;
  std::string shared_name(const void* address, std::size_t element_bytes) const;

  const LaunchConfig& config_;
  StackPool& stacks_;
  unsigned n_ = 0;  // threads per block
  unsigned warps_ = 0;
  unsigned live_ = 0;     // threads not exited
  unsigned current_ = 0;  // id of the running thread
  bool running_ = false;
  uint3 block_{};
  std::vector<Thread> threads_;
  std::vector<unsigned> ready_;         // made runnable, run in the next round
  std::vector<unsigned> round_;         // this round's order
  std::size_t round_pos_ = 0;           // the position in round_ of the thread running now
  std::vector<unsigned> warp_waiting_;  // per warp: lanes waiting at a collective
  std::vector<unsigned> warp_exited_;   // per warp: lanes that exited
  unsigned barrier_count_ = 0;
  unsigned barrier_true_ = 0;
  bool barrier_mixed_ = false;
  std::source_location barrier_loc_;
  std::exception_ptr error_;
  std::mt19937 rng_;
  unsigned char* smem_ = nullptr;  // dynamic shared memory: its last byte touches guard_
  std::size_t smem_alloc_ = 0;
  unsigned char* map_ = nullptr;  // the mapping holding smem_ and the guard page after it
  unsigned char* guard_ = nullptr;
  std::size_t map_bytes_ = 0;
  BlockRunner* previous_ = nullptr;
  std::unique_ptr<RaceDetector> race_;  // only when the launch's options ask for race checking
  std::uint64_t serial_ = 0;            // unique per block run: which block initialised a barrier
  Cluster* cluster_ = nullptr;          // the cluster this runner's blocks belong to, if any
  unsigned rank_ = 0;                   // and their rank in it
  unsigned far_waiting_ = 0;  // threads at cluster.sync() or cudaGridDependencySynchronize()
  // Without a cluster (a cluster of one block): arrivals at its barrier, and its completed phases.
  unsigned solo_arrived_ = 0;
  std::uint64_t solo_phase_ = 1;
  std::vector<AsyncCopy> copies_;
  std::vector<LandedCopy> landed_;
  std::optional<TlsRanges> tls_;  // this host thread's thread-local storage, once asked for
#ifdef __EMSCRIPTEN__
  // The web build runs the scheduling loop on a fiber of its own, so that each switch to and from
  // a CUDA thread saves and restores only the loop's few frames (Asyncify copies the whole stack
  // of the context it leaves), not the host program's under the launch; the loop comes back to
  // run() for the run hook's turn.
  Fiber rounds_;
  uint3 rounds_block_{};
  std::exception_ptr rounds_result_;
  std::exception_ptr hook_error_;
#endif
};

}  // namespace rl::sim::detail
