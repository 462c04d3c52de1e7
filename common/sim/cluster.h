// The blocks of one thread-block cluster, run together. On a GPU a cluster's blocks are
// co-scheduled: a cluster barrier among them can complete, and each can read the others' shared
// memory. Here every block of the cluster runs on a host thread of its own (so each has its own
// static __shared__ storage, which is thread_local) and one block runs at a time: the block that
// has the cluster's turn runs its threads until none can go on (they wait at cluster.sync(), at
// cudaGridDependencySynchronize(), or have exited), then passes the turn to the next block, in
// rank order, that can go on; when a cluster.sync() completes, the turn starts again at rank 0.
// The schedule is therefore the same on every run, and a cluster in which no block can go on is a
// reported deadlock, never a hang.
//
// A Cluster is used by one host thread (its controller, a worker of the grid or the programmatic
// dependent launch) that waits while the cluster's blocks run.
#pragma once
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <semaphore>
#include <source_location>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/sim/fault_gate.h"
#include "common/sim/launch_config.h"
#include "common/sim/racecheck.h"
#include "common/sim/tls_ranges.h"

namespace rl::sim::detail {

class BlockRunner;

class Cluster {
 public:
  // Starts config.cluster_x host threads, each with the runner of one rank. Faults in them are
  // reported through `gate`, in the name of the calling (controller) thread.
  Cluster(const LaunchConfig& config, FaultGate* gate);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  enum class Outcome { finished, suspended };
  // Runs the cluster whose rank-0 block is `first` until every block has ended (finished) or, when
  // `dependency_pending`, until every thread that can go on waits at
  // cudaGridDependencySynchronize() (suspended). error() says whether a block failed.
  Outcome run(uint3 first, bool dependency_pending);
  // After run() suspended: the grid depended on has completed; runs on.
  Outcome resume();
  // After run() suspended: ends the blocks without running them on (their fibers unwind).
  void abandon();
  std::exception_ptr error() const { return error_; }
  std::uint64_t first_linear_block() const;

  // ---- called by the runners, on the host thread that holds the turn ----
  unsigned size() const { return static_cast<unsigned>(ranks_.size()); }
  bool dependency_pending() const { return dependency_pending_; }
  // Passes the turn on and waits for it again; returns the cluster's error when the cluster is
  // being torn down (the block must end), else null.
  std::exception_ptr park(unsigned rank);
  // After a cluster.sync() completed, the holder gives the turn to the lowest rank that can go on
  // (maybe itself) and waits for it again; as park().
  bool restart_pending() const { return restart_; }
  std::exception_ptr restart(unsigned rank);
  // A thread of block `rank` arrives at cluster.sync(); returns the report when the barrier
  // completed with threads at different call sites.
  std::optional<std::string> arrive(unsigned rank, const std::source_location& loc, bool sync);
  // Cluster barriers completed so far, plus one.
  std::uint64_t phase() const { return epoch_; }
  BlockRunner& runner(unsigned rank) { return *ranks_[rank]->runner; }
  bool exited(unsigned rank) const { return ranks_[rank]->exited; }
  const TlsRanges& tls(unsigned rank) const { return ranks_[rank]->tls; }
  uint3 block_of(unsigned rank) const { return uint3{first_.x + rank, first_.y, first_.z}; }
  std::string block_name(unsigned rank) const;  // "block (4,0,0)"
  // Block `user_rank`'s thread will access block `target`'s shared memory (map_shared_rank).
  void note_remote_use(unsigned target, unsigned user_rank, unsigned thread,
                       const std::source_location& loc);
  // Block `rank`'s last thread has exited: the report if another block may still use its memory.
  std::exception_ptr block_exited(unsigned rank);
  // With race checking: an access of shared memory (any block's) by block `rank`'s thread; the
  // report when a different block's access of it since the last cluster.sync() conflicts.
  std::optional<std::string> check_shared(unsigned rank, unsigned thread, const void* address,
                                          std::size_t bytes, AccessKind kind,
                                          const std::source_location& loc);

 private:
  enum class Status { idle, started, finished };
  struct Rank {
    std::thread thread;
    std::binary_semaphore turn{0};
    BlockRunner* runner = nullptr;
    TlsRanges tls;
    Status status = Status::idle;
    bool exited = false;
  };
  struct RemoteUse {
    unsigned target;
    unsigned rank;
    unsigned thread;
    std::source_location loc;
  };
  struct Access {
    unsigned rank;
    unsigned thread;
    std::source_location loc;
  };
  struct SharedCell {
    std::uint64_t epoch = 0;
    std::optional<Access> write;
    std::vector<Access> reads;  // at most one per block
  };

  void rank_main(unsigned rank);
  void finished(unsigned rank, std::exception_ptr e);
  void pass_turn(unsigned from);
  std::exception_ptr deadlock_report();
  std::string shared_location(const void* address, std::size_t bytes) const;

  const LaunchConfig& config_;
  FaultGate* gate_;
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::binary_semaphore controller_{0};
  std::exception_ptr start_error_;
  bool quit_ = false;
  bool suspended_ = false;
  uint3 first_{};
  bool dependency_pending_ = false;
  bool aborting_ = false;
  Outcome outcome_ = Outcome::finished;
  std::exception_ptr error_;
  // cluster.sync(): arrivals so far, the first one's call site, whether others differ
  unsigned arrived_ = 0;
  std::source_location site_;  // of the first cluster.sync() among them
  bool has_site_ = false;
  bool mixed_ = false;
  bool restart_ = false;
  std::uint64_t epoch_ = 1;      // completed cluster barriers, plus one
  std::vector<RemoteUse> uses_;  // since the last cluster.sync()
  std::unordered_map<std::uintptr_t, SharedCell> shadow_;
};

}  // namespace rl::sim::detail
