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
    finished(r, runner->run(block_of(r)));
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
    what = "cluster.sync() at " + sites.begin()->first + " is not reached by " + exited +
           ", which exited (every thread of every block of the cluster must arrive)";
  } else {
    what = "deadlock in the cluster of " + block_name(0) + " to " + block_name(size() - 1) + ":";
    for (unsigned r = 0; r < size(); ++r)
      what += (r == 0 ? " " : "; ") + block_name(r) + ": " + runner(r).describe_stuck();
  }
  return runner(reporter->first).error_of(reporter->second, what);
}

std::optional<std::string> Cluster::arrive(unsigned rank, const std::source_location& loc) {
  (void)rank;
  if (arrived_ == 0) {
    site_ = loc;
    mixed_ = false;
  } else if (!same_location(loc, site_)) {
    mixed_ = true;
  }
  unsigned all = 0;
  for (unsigned r = 0; r < size(); ++r) all += runner(r).threads();
  if (++arrived_ < all) return std::nullopt;
  arrived_ = 0;
  if (mixed_) {
    std::string what = "threads of the cluster wait at different cluster.sync() calls:";
    for (unsigned r = 0; r < size(); ++r)
      for (const auto& [site, ids] : runner(r).cluster_sites())
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
  for (unsigned r = 0; r < size(); ++r) runner(r).release_cluster_waiters(site_);
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

// ---------------------------------------------------------------------------------------------
// BlockRunner: what a kernel asks of its cluster
// ---------------------------------------------------------------------------------------------

void BlockRunner::join_cluster(Cluster* cluster, unsigned rank) {
  cluster_ = cluster;
  rank_ = rank;
}

ClusterShape BlockRunner::cluster_shape() const {
  return ClusterShape{cluster_ ? cluster_->size() : 1u, rank_};
}

void BlockRunner::cluster_barrier(const std::source_location& loc) {
  if (!running_) return;
  Thread& t = threads_[current_];
  t.state = State::cluster;
  t.loc = loc;
  ++far_waiting_;
  if (cluster_ != nullptr) {
    if (auto mixed = cluster_->arrive(rank_, loc)) fail(*mixed);
  } else if (far_waiting_ == n_) {  // a cluster of one block: its own threads complete it
    const auto sites = cluster_sites();
    if (sites.size() > 1) {
      std::string what = "threads of the block wait at different cluster.sync() calls:";
      for (const auto& [site, ids] : sites)
        what += " threads " + format_ranges(ids) + " at " + site + ",";
      what.pop_back();
      fail(what);
    }
    release_cluster_waiters(loc);
  }
  yield();
}

void BlockRunner::release_cluster_waiters(const std::source_location& loc) {
  for (unsigned id = 0; id < n_; ++id) {
    if (threads_[id].state != State::cluster) continue;
    threads_[id].state = State::ready;
    ready_.push_back(id);
    --far_waiting_;
  }
  // a cluster barrier is a barrier of the block too, for the race detector and a trace
  if (race_) race_->block_barrier();
  report_sync(0, 0, loc);
}

void BlockRunner::grid_dependency_sync(const std::source_location& loc) {
  if (!running_ || cluster_ == nullptr || !cluster_->dependency_pending()) return;
  Thread& t = threads_[current_];
  t.state = State::dependency;
  t.loc = loc;
  ++far_waiting_;
  yield();
}

void BlockRunner::release_dependency_waiters() {
  for (unsigned id = 0; id < n_; ++id) {
    if (threads_[id].state != State::dependency) continue;
    threads_[id].state = State::ready;
    ready_.push_back(id);
    --far_waiting_;
  }
}

bool BlockRunner::waits_for_dependency() const {
  return std::any_of(threads_.begin(), threads_.end(),
                     [](const Thread& t) { return t.state == State::dependency; });
}

std::vector<std::pair<std::string, std::vector<unsigned>>> BlockRunner::cluster_sites() const {
  std::map<std::string, std::vector<unsigned>> sites;
  for (unsigned id = 0; id < n_; ++id)
    if (threads_[id].state == State::cluster)
      sites[format_location(threads_[id].loc)].push_back(id);
  return {sites.begin(), sites.end()};
}

std::vector<unsigned> BlockRunner::exited_threads() const {
  std::vector<unsigned> ids;
  for (unsigned id = 0; id < n_; ++id)
    if (threads_[id].state == State::exited) ids.push_back(id);
  return ids;
}

std::string BlockRunner::describe_stuck() const {
  std::vector<unsigned> all(n_);
  for (unsigned id = 0; id < n_; ++id) all[id] = id;
  return describe_waits(all);
}

std::optional<unsigned> BlockRunner::first_waiting_thread() const {
  for (unsigned id = 0; id < n_; ++id)
    if (threads_[id].state != State::exited && threads_[id].state != State::ready) return id;
  return std::nullopt;
}

bool BlockRunner::in_dynamic_shared(const void* p, std::size_t bytes) const {
  const auto* a = static_cast<const unsigned char*>(p);
  return a >= smem_ && a + bytes <= smem_ + config_.dynamic_smem_bytes;
}

const TlsRanges& BlockRunner::tls_ranges() {
  if (!tls_) tls_ = current_tls_ranges();
  return *tls_;
}

bool BlockRunner::in_static_shared(const void* p, std::size_t bytes) {
  return find_tls(tls_ranges(), p, bytes) != nullptr;
}

void* BlockRunner::map_shared_rank(const void* addr, int rank, bool record,
                                   const std::source_location& loc) {
  const unsigned k = cluster_ ? cluster_->size() : 1;
  const std::string where = "map_shared_rank at " + format_location(loc);
  if (rank < 0 || static_cast<unsigned>(rank) >= k)
    fail(where + ": rank " + std::to_string(rank) + " is not in the cluster of " +
         std::to_string(k) + (k == 1 ? " block (rank 0)" : " blocks (ranks 0 to ") +
         (k == 1 ? "" : std::to_string(k - 1) + ")"));
  const auto target = static_cast<unsigned>(rank);
  const auto* a = static_cast<const unsigned char*>(addr);
  // One past the end is a valid address too (a view's end), hence the size 0.
  const bool dynamic = a >= smem_ && a <= smem_ + config_.dynamic_smem_bytes;
  const TlsBlock* own_tls = dynamic ? nullptr : find_tls(tls_ranges(), a, 0);
  if (!dynamic && own_tls == nullptr)
    fail(where + ": the address is not in this block's shared memory");
  if (target == rank_ || !running_) return const_cast<void*>(addr);
  if (cluster_->exited(target))
    fail(where + ": " + cluster_->block_name(target) + " (rank " + std::to_string(target) +
         ") of the cluster has exited, and its shared memory with it (a block must not end while "
         "another block may read its shared memory: cluster.sync() before it ends)");
  if (record) cluster_->note_remote_use(target, rank_, current_, loc);
  BlockRunner& other = cluster_->runner(target);
  if (dynamic) return const_cast<unsigned char*>(other.smem_ + (a - smem_));
  for (const TlsBlock& b : cluster_->tls(target))
    if (b.module == own_tls->module)
      return const_cast<unsigned char*>(b.begin + (a - own_tls->begin));
  fail(where + ": the other block's copy of this __shared__ variable was not found");
}

unsigned BlockRunner::query_shared_rank(const void* addr, const std::source_location& loc) {
  const auto* a = static_cast<const unsigned char*>(addr);
  const unsigned k = cluster_ ? cluster_->size() : 1;
  for (unsigned r = 0; r < k; ++r) {
    if (cluster_ == nullptr || r == rank_) {
      if (in_dynamic_shared(a, 1) || in_static_shared(a, 1)) return r;
      continue;
    }
    if (cluster_->runner(r).in_dynamic_shared(a, 1) || find_tls(cluster_->tls(r), a, 1)) return r;
  }
  fail("query_shared_rank at " + format_location(loc) +
       ": the address is in no block's shared memory of this cluster");
}

}  // namespace rl::sim::detail
