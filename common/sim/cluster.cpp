#include "common/sim/cluster.h"

#include <algorithm>
#include <map>

#include "common/sim/block_runner.h"
#include "common/sim/errors.h"
#include "common/sim/stack_pool.h"

namespace rl::sim::detail {
namespace {

std::string block_text(uint3 b) {
  return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) +
         ")";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Cluster: the turn, the cluster barrier, distributed shared memory
// ---------------------------------------------------------------------------------------------

Cluster::Cluster(const LaunchConfig& config, FaultGate* gate) : config_(config), gate_(gate) {
  const unsigned k = config.cluster_x;
  for (unsigned r = 0; r < k; ++r) ranks_.push_back(std::make_unique<Rank>());
  // One at a time: each builds its runner and says so before the next starts.
  for (unsigned r = 0; r < k && !start_error_; ++r) {
    ranks_[r]->thread = std::thread([this, r] { rank_main(r); });
    controller_.acquire();
  }
  if (start_error_) {
    quit_ = true;
    for (auto& rank : ranks_)
      if (rank->thread.joinable()) {
        rank->turn.release();
        rank->thread.join();
      }
    std::rethrow_exception(start_error_);
  }
}

Cluster::~Cluster() {
  if (suspended_) abandon();
  quit_ = true;
  for (auto& rank : ranks_) {
    rank->turn.release();
    rank->thread.join();
  }
}

void Cluster::rank_main(unsigned r) {
  t_gate = gate_;
  Rank& me = *ranks_[r];
  std::optional<StackPool> stacks;
  std::optional<BlockRunner> runner;
  try {
    stacks.emplace();
    runner.emplace(config_, *stacks);
    runner->join_cluster(this, r);
    me.runner = &*runner;
    me.tls = current_tls_ranges();
  } catch (...) {
    start_error_ = std::current_exception();
    controller_.release();
    return;
  }
  controller_.release();
  for (;;) {
    me.turn.acquire();
    if (quit_) break;
    if (aborting_) {  // torn down before this block started
      finished(r, nullptr);
      continue;
    }
    me.status = Status::started;
    std::exception_ptr e;
    try {
      e = runner->run(block_of(r));
    } catch (...) {  // not a kernel's failure: no stack for a fiber, say
      e = std::current_exception();
    }
    finished(r, std::move(e));
  }
  me.runner = nullptr;
}

std::uint64_t Cluster::first_linear_block() const {
  return first_.x +
         std::uint64_t{config_.grid.x} * (first_.y + std::uint64_t{config_.grid.y} * first_.z);
}

Cluster::Outcome Cluster::run(uint3 first, bool dependency_pending) {
  first_ = first;
  dependency_pending_ = dependency_pending;
  aborting_ = false;
  error_ = nullptr;
  arrived_ = 0;
  has_site_ = false;
  mixed_ = false;
  restart_ = false;
  epoch_ = 1;
  uses_.clear();
  shadow_.clear();
  for (auto& rank : ranks_) {
    rank->status = Status::idle;
    rank->exited = false;
  }
  ranks_[0]->turn.release();
  controller_.acquire();
  suspended_ = outcome_ == Outcome::suspended;
  return outcome_;
}

Cluster::Outcome Cluster::resume() {
  dependency_pending_ = false;
  suspended_ = false;
  for (auto& rank : ranks_)
    if (rank->status == Status::started) rank->runner->release_dependency_waiters();
  pass_turn(size() - 1);  // from rank 0 on
  controller_.acquire();
  suspended_ = outcome_ == Outcome::suspended;
  return outcome_;
}

void Cluster::abandon() {
  suspended_ = false;
  aborting_ = true;
  if (!error_) error_ = std::make_exception_ptr(KernelError("sim: the cluster was abandoned"));
  pass_turn(size() - 1);
  controller_.acquire();
}

std::exception_ptr Cluster::park(unsigned rank) {
  pass_turn(rank);
  ranks_[rank]->turn.acquire();
  return aborting_ ? error_ : nullptr;
}

std::exception_ptr Cluster::restart(unsigned rank) {
  restart_ = false;
  pass_turn(size() - 1);  // rank 0 first
  ranks_[rank]->turn.acquire();
  return aborting_ ? error_ : nullptr;
}

void Cluster::finished(unsigned rank, std::exception_ptr e) {
  ranks_[rank]->status = Status::finished;
  if (e && !error_) {
    error_ = std::move(e);
    aborting_ = true;
  }
  pass_turn(rank);
}

// Gives the turn to the next block after `from`, in rank order, that can go on; when none can,
// to the controller (every block finished, or the cluster waits for the grid before it) or, after
// reporting the deadlock, to the blocks one by one so that they end.
void Cluster::pass_turn(unsigned from) {
  const unsigned k = size();
  for (unsigned i = 1; i <= k; ++i) {
    Rank& r = *ranks_[(from + i) % k];
    if (r.status == Status::finished) continue;
    if (aborting_ || r.status == Status::idle || r.runner->has_ready()) {
      r.turn.release();
      return;
    }
  }
  const bool all_finished = std::all_of(
      ranks_.begin(), ranks_.end(), [](const auto& r) { return r->status == Status::finished; });
  if (all_finished) {
    outcome_ = Outcome::finished;
    controller_.release();
    return;
  }
  const bool waits_for_grid = std::any_of(ranks_.begin(), ranks_.end(), [](const auto& r) {
    return r->status == Status::started && r->runner->waits_for_dependency();
  });
  if (dependency_pending_ && waits_for_grid) {
    outcome_ = Outcome::suspended;
    controller_.release();
    return;
  }
  error_ = deadlock_report();
  aborting_ = true;
  pass_turn(from);
}

std::string Cluster::block_name(unsigned rank) const { return block_text(block_of(rank)); }

std::exception_ptr Cluster::deadlock_report() {
  // Who is stuck where. The common case, a block that ended without the cluster.sync() the others
  // wait at, gets its own words.
  std::map<std::string, unsigned> sites;  // call site -> threads there
  unsigned stuck_elsewhere = 0;
  std::string exited;
  std::optional<std::pair<unsigned, unsigned>> reporter;  // rank, thread
  for (unsigned r = 0; r < size(); ++r) {
    BlockRunner& b = runner(r);
    for (const auto& [site, ids] : b.cluster_sites())
      sites[site] += static_cast<unsigned>(ids.size());
    const std::vector<unsigned> gone = b.exited_threads();
    if (!gone.empty())
      exited += (exited.empty() ? "" : ", ") + std::string("threads ") + format_ranges(gone) +
                " of " + block_name(r);
    unsigned at_sites = 0;
    for (const auto& [site, ids] : b.cluster_sites()) at_sites += static_cast<unsigned>(ids.size());
    stuck_elsewhere += b.threads() - static_cast<unsigned>(gone.size()) - at_sites;
    if (!reporter)
      if (auto t = b.first_waiting_thread()) reporter = std::make_pair(r, *t);
  }
  if (!reporter) reporter = std::make_pair(0u, 0u);
  std::string what;
  if (sites.size() == 1 && stuck_elsewhere == 0 && !exited.empty()) {
    bool split = false;
    for (unsigned r = 0; r < size(); ++r) split = split || runner(r).waits_split();
    what = (split ? "the cluster barrier (barrier_wait()) at " : "cluster.sync() at ") +
           sites.begin()->first + " is not reached by " + exited +
           ", which exited (every thread of every block of the cluster must arrive)";
  } else {
    what = "deadlock in the cluster of " + block_name(0) + " to " + block_name(size() - 1) + ":";
    for (unsigned r = 0; r < size(); ++r)
      what += (r == 0 ? " " : "; ") + block_name(r) + ": " + runner(r).describe_stuck();
  }
  return runner(reporter->first).error_of(reporter->second, what);
}

std::optional<std::string> Cluster::arrive(unsigned rank, const std::source_location& loc,
                                           bool sync) {
  (void)rank;
  if (arrived_ == 0) {
    has_site_ = false;
    mixed_ = false;
  }
  if (sync && !has_site_) {
    site_ = loc;
    has_site_ = true;
  } else if (sync && !same_location(loc, site_)) {
    mixed_ = true;
  }
  unsigned all = 0;
  for (unsigned r = 0; r < size(); ++r) all += runner(r).threads();
  if (++arrived_ < all) return std::nullopt;
  arrived_ = 0;
  if (mixed_) {
    std::string what = "threads of the cluster wait at different cluster.sync() calls:";
    for (unsigned r = 0; r < size(); ++r)
      for (const auto& [site, ids] : runner(r).cluster_sites(true))
        // appended piece by piece: GCC 12 misreports `" " + string` here (-Wrestrict, bug 105329)
        what.append(" ")
            .append(block_name(r))
            .append(" threads ")
            .append(format_ranges(ids))
            .append(" at ")
            .append(site)
            .append(";");
    what.pop_back();
    return what;
  }
  ++epoch_;
  uses_.clear();  // every use so far is ordered before every block's exit from here on
  for (unsigned r = 0; r < size(); ++r) runner(r).release_cluster_waiters(has_site_ ? site_ : loc);
  restart_ = true;
  return std::nullopt;
}

void Cluster::note_remote_use(unsigned target, unsigned user_rank, unsigned thread,
                              const std::source_location& loc) {
  uses_.push_back(RemoteUse{target, user_rank, thread, loc});
}

std::exception_ptr Cluster::block_exited(unsigned rank) {
  ranks_[rank]->exited = true;
  for (const RemoteUse& u : uses_) {
    if (u.target != rank) continue;
    return runner(u.rank).error_of(
        u.thread, "distributed shared memory: " + block_name(rank) +
                      " of the cluster exited while this thread could still access its shared "
                      "memory (map_shared_rank at " +
                      format_location(u.loc) +
                      ") with no cluster.sync() between that access and the exit (a block must "
                      "not end while another block may read its shared memory)");
  }
  return nullptr;
}

std::string Cluster::shared_location(const void* address, std::size_t bytes) const {
  const auto* p = static_cast<const unsigned char*>(address);
  for (unsigned r = 0; r < size(); ++r) {
    const BlockRunner& b = *ranks_[r]->runner;
    if (b.in_dynamic_shared(p, bytes))
      return "shared[" +
             std::to_string(static_cast<std::size_t>(p - b.dynamic_shared_begin()) /
                            std::max<std::size_t>(bytes, 1)) +
             "] of " + block_name(r);
    if (find_tls(ranks_[r]->tls, p, bytes)) return "a __shared__ variable of " + block_name(r);
  }
  return "shared memory";
}

std::optional<std::string> Cluster::check_shared(unsigned rank, unsigned thread,
                                                 const void* address, std::size_t bytes,
                                                 AccessKind kind, const std::source_location& loc) {
  SharedCell& c = shadow_[reinterpret_cast<std::uintptr_t>(address)];
  if (c.epoch != epoch_) {  // everything recorded came before a cluster.sync()
    c.epoch = epoch_;
    c.write.reset();
    c.reads.clear();
  }
  const auto report = [&](const Access& a, AccessKind earlier) {
    const char* hazard = earlier == AccessKind::write
                             ? (kind == AccessKind::read ? "read-after-write" : "write-after-write")
                             : "write-after-read";
    return std::string("racecheck: ") + hazard + " race on " + shared_location(address, bytes) +
           ": " + block_name(a.rank) + " thread " + std::to_string(a.thread) + " " +
           (earlier == AccessKind::read ? "read" : "wrote") + " it at " + format_location(a.loc) +
           ", then " + block_name(rank) + " thread " + std::to_string(thread) + " " +
           (kind == AccessKind::read ? "read" : "wrote") + " it at " + format_location(loc) +
           ", with no cluster.sync() between them";
  };
  if (c.write && c.write->rank != rank) return report(*c.write, AccessKind::write);
  if (kind == AccessKind::read) {
    auto same = std::find_if(c.reads.begin(), c.reads.end(),
                             [&](const Access& a) { return a.rank == rank; });
    if (same == c.reads.end())
      c.reads.push_back(Access{rank, thread, loc});
    else
      *same = Access{rank, thread, loc};
    return std::nullopt;
  }
  for (const Access& a : c.reads)
    if (a.rank != rank) return report(a, AccessKind::read);
  c.write = Access{rank, thread, loc};
  c.reads.clear();
  return std::nullopt;
}

}  // namespace rl::sim::detail
