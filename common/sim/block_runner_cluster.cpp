// BlockRunner's side of clusters: what a kernel asks of its cluster (cluster.sync(), distributed
// shared memory, cudaGridDependencySynchronize()) and what the cluster asks of its blocks.
#include <algorithm>
#include <map>

#include "common/sim/block_runner.h"
#include "common/sim/cluster.h"
#include "common/sim/errors.h"

namespace rl::sim::detail {

void BlockRunner::join_cluster(Cluster* cluster, unsigned rank) {
  cluster_ = cluster;
  rank_ = rank;
}

ClusterShape BlockRunner::cluster_shape() const {
  return ClusterShape{cluster_ ? cluster_->size() : 1u, rank_};
}

std::uint64_t BlockRunner::cluster_phase() const {
  return cluster_ != nullptr ? cluster_->phase() : solo_phase_;
}

// An arrival at the cluster barrier; the last one completes the phase. `sync`: a cluster.sync(),
// whose call sites must agree (the thread is already waiting).
void BlockRunner::arrive_at_cluster_barrier(const std::source_location& loc, bool sync) {
  Thread& t = threads_[current_];
  if (t.cluster_arrived)
    fail(std::string(sync ? "cluster.sync()" : "the cluster's barrier_arrive()") + " at " +
         format_location(loc) +
         ": this thread has arrived at the cluster barrier already (barrier_wait() first)");
  t.cluster_arrived = true;
  t.cluster_phase = cluster_phase();
  if (cluster_ != nullptr) {
    if (auto mixed = cluster_->arrive(rank_, loc, sync)) fail(*mixed);
    return;
  }
  if (++solo_arrived_ < n_) return;  // a cluster of one block: its own threads complete it
  solo_arrived_ = 0;
  const auto sites = cluster_sites(true);
  if (sites.size() > 1) {
    std::string what = "threads of the block wait at different cluster.sync() calls:";
    for (const auto& [site, ids] : sites)
      what += " threads " + format_ranges(ids) + " at " + site + ",";
    what.pop_back();
    fail(what);
  }
  ++solo_phase_;
  release_cluster_waiters(loc);
}

void BlockRunner::cluster_barrier(const std::source_location& loc) {
  if (!running_) return;
  Thread& t = threads_[current_];
  t.state = State::cluster;
  t.loc = loc;
  t.arg = 0;
  ++far_waiting_;
  arrive_at_cluster_barrier(loc, true);
  yield();
  t.cluster_arrived = false;
}

void BlockRunner::cluster_arrive(const std::source_location& loc) {
  if (running_) arrive_at_cluster_barrier(loc, false);
}

void BlockRunner::cluster_wait(const std::source_location& loc) {
  if (!running_) return;
  Thread& t = threads_[current_];
  if (!t.cluster_arrived)
    fail("the cluster's barrier_wait() at " + format_location(loc) +
         ": this thread has not arrived at the cluster barrier (barrier_arrive() first)");
  if (cluster_phase() > t.cluster_phase) {  // every thread has arrived since
    t.cluster_arrived = false;
    return;
  }
  t.state = State::cluster;
  t.loc = loc;
  t.arg = 1;
  ++far_waiting_;
  yield();
  t.cluster_arrived = false;
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
  if (!running_) return;
  // Once it returns, the grid this one depends on has completed and its writes are visible.
  if (race_) race_->dependency_synced(current_);
  if (cluster_ == nullptr || !cluster_->dependency_pending()) return;
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

std::vector<std::pair<std::string, std::vector<unsigned>>> BlockRunner::cluster_sites(
    bool syncs) const {
  std::map<std::string, std::vector<unsigned>> sites;
  for (unsigned id = 0; id < n_; ++id)
    if (threads_[id].state == State::cluster && (!syncs || threads_[id].arg == 0))
      sites[format_location(threads_[id].loc)].push_back(id);
  return {sites.begin(), sites.end()};
}

bool BlockRunner::waits_split() const {
  return std::any_of(threads_.begin(), threads_.end(),
                     [](const Thread& t) { return t.state == State::cluster && t.arg != 0; });
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
  if (record) {
    cluster_->note_remote_use(target, rank_, current_, loc);
    remote_maps.fetch_add(1, std::memory_order_relaxed);
  }
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
