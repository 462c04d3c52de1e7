// Runs one block of a launch on the calling host thread: one fiber per CUDA thread,
// resumed one at a time (in the launch's Schedule order) until each reaches its next
// synchronisation point; implements __syncthreads and the warp collectives and turns
// misuse and deadlock into kernel errors.
#pragma once
#include <boost/context/fiber.hpp>

#include <cstdint>
#include <exception>
#include <random>
#include <source_location>
#include <string>
#include <vector>

#include <memory>

#include "common/sim/launch_config.h"
#include "common/sim/race_detector.h"
#include "common/sim/racecheck.h"
#include "common/sim/runtime.h"
#include "common/sim/stack_pool.h"

namespace rl::sim::detail {

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
  void check_access(const void* address, std::size_t bytes, AccessKind kind, MemorySpace space,
                    const void* base, std::size_t element_bytes, const std::source_location& loc);
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

 private:
  enum class State : unsigned char { ready, barrier, warp, exited };

  struct Thread {
    boost::context::fiber fiber;
    uint3 index{};
    State state = State::ready;
    WarpOp op = WarpOp::syncwarp;
    int width = 32;
    unsigned mask = 0;
    std::int64_t arg = 0;
    std::uint64_t value = 0;
    std::uint64_t result = 0;
    std::source_location loc;
  };

  void thread_main(unsigned id);
  void thread_exit(unsigned id);
  void yield();
  void set_error(std::exception_ptr e);
  std::exception_ptr make_error(unsigned id, const std::string& what) const;
  void complete_warp_group(unsigned warp, unsigned mask);
  void report_sync(unsigned warp, unsigned warp_mask, const std::source_location& loc) const;
  unsigned lanes_in_warp(unsigned warp) const;
  void order_round();
  std::exception_ptr deadlock_report() const;
  std::string describe_waits(const std::vector<unsigned>& ids) const;

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
  std::vector<unsigned> warp_waiting_;  // per warp: lanes waiting at a collective
  std::vector<unsigned> warp_exited_;   // per warp: lanes that exited
  unsigned barrier_count_ = 0;
  unsigned barrier_true_ = 0;
  bool barrier_mixed_ = false;
  std::source_location barrier_loc_;
  boost::context::fiber scheduler_;  // held by the running fiber: how to get back
  std::exception_ptr error_;
  std::mt19937 rng_;
  unsigned char* smem_ = nullptr;  // dynamic shared memory: its last byte touches guard_
  std::size_t smem_alloc_ = 0;
  unsigned char* map_ = nullptr;  // the mapping holding smem_ and the guard page after it
  unsigned char* guard_ = nullptr;
  std::size_t map_bytes_ = 0;
  BlockRunner* previous_ = nullptr;
  std::unique_ptr<RaceDetector> race_;  // only when the launch's options ask for race checking
};

}  // namespace rl::sim::detail
