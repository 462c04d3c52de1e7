#include "common/sim/block_runner.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <functional>
#include <map>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

#include "common/sim/builtins.h"
#include "common/sim/cluster.h"
#include "common/sim/errors.h"
#include "common/sim/run_hook.h"
#include "common/sim/warp_rules.h"

namespace rl::sim::detail {
namespace {

thread_local BlockRunner* t_current = nullptr;

// Every block run gets a number of its own (a barrier remembers which block initialised it).
std::atomic<std::uint64_t> next_serial{1};

// Calls f(lane) for each set bit of mask, lowest lane first.
template <class F>
void for_lanes(unsigned mask, F&& f) {
  for (unsigned m = mask; m != 0; m &= m - 1) f(static_cast<unsigned>(std::countr_zero(m)));
}

std::vector<unsigned> lanes_of(unsigned mask) {
  std::vector<unsigned> lanes;
  for_lanes(mask, [&](unsigned l) { lanes.push_back(l); });
  return lanes;
}

bool is_shuffle(WarpOp op) {
  return op == WarpOp::shfl_idx || op == WarpOp::shfl_up || op == WarpOp::shfl_down ||
         op == WarpOp::shfl_xor;
}

// Set by a trace recorder between launches, read by the blocks of a launch: an atomic, so host
// threads that start later blocks see the value set before the launch.
std::atomic<SyncObserver> sync_observer{nullptr};

}  // namespace

BlockRunner* BlockRunner::current() noexcept { return t_current; }

void BlockRunner::report_sync(unsigned warp, unsigned warp_mask,
                              const std::source_location& loc) const {
  const SyncObserver observe = sync_observer.load(std::memory_order_acquire);
  if (!observe) return;
  const unsigned block = block_.x + config_.grid.x * (block_.y + config_.grid.y * block_.z);
  observe(SyncEvent{block, warp, warp_mask, static_cast<unsigned>(loc.line())});
}

BlockRunner::BlockRunner(const LaunchConfig& config, StackPool& stacks)
    : config_(config), stacks_(stacks) {
  n_ = config.block.x * config.block.y * config.block.z;
  warps_ = (n_ + 31) / 32;
  threads_.resize(n_);
  ready_.reserve(n_);
  round_.reserve(n_);
  warp_waiting_.assign(warps_, 0);
  warp_exited_.assign(warps_, 0);
  // Dynamic shared memory ends exactly at an inaccessible page, so a read or write past its last
  // byte faults at once (a kernel indexing partial[tid + stride] past the block, say) instead of
  // quietly touching a neighbour's memory; the grader turns that fault into a report.
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  smem_alloc_ = (std::max<std::size_t>(config.dynamic_smem_bytes, 16) + 15) / 16 * 16;
  const std::size_t body = (smem_alloc_ + page - 1) / page * page;
  map_bytes_ = body + page;
  void* map =
      ::mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) throw std::bad_alloc();
  map_ = static_cast<unsigned char*>(map);
  guard_ = map_ + body;
  if (::mprotect(guard_, page, PROT_NONE) != 0) {
    ::munmap(map_, map_bytes_);
    throw std::bad_alloc();
  }
  smem_ = guard_ - smem_alloc_;  // 16-byte aligned: body and smem_alloc_ are multiples of 16
  if (config.options.racecheck || config.options.late_visibility)
    race_ = std::make_unique<RaceDetector>(n_, smem_, config.dynamic_smem_bytes, map_,
                                           map_ + map_bytes_, config.grid, config.options.racecheck,
                                           config.options.late_visibility);
}

BlockRunner::~BlockRunner() { ::munmap(map_, map_bytes_); }

bool BlockRunner::in_shared_guard(const void* address) const noexcept {
  const auto* a = static_cast<const unsigned char*>(address);
  return a >= guard_ && a < map_ + map_bytes_;
}

#ifdef __EMSCRIPTEN__
std::exception_ptr BlockRunner::run(uint3 block_index) {
  rounds_block_ = block_index;
  hook_error_ = nullptr;
  rounds_.start(
      stacks_,
      [](void* self) {
        auto* r = static_cast<BlockRunner*>(self);
        r->rounds_result_ = r->run_rounds(r->rounds_block_);
      },
      this);
  for (;;) {
    rounds_.resume();
    if (!rounds_) break;
    // The loop suspended for the run hook's turn: the hook may suspend the host's own fiber (the
    // page draws a frame) or throw to stop the run.
    try {
      if (const RunHook hook = run_hook()) hook(0, 0);
    } catch (...) {
      hook_error_ = std::current_exception();
    }
  }
  return rounds_result_;
}

bool BlockRunner::host_turn() {
  if (run_hook() == nullptr) return true;
  rounds_.suspend();
  if (!hook_error_) return true;
  error_ = hook_error_;
  return false;
}
#else
std::exception_ptr BlockRunner::run(uint3 block_index) { return run_rounds(block_index); }

bool BlockRunner::host_turn() {
  if (const RunHook hook = run_hook()) {
    try {
      hook(0, 0);
    } catch (...) {  // the host stops the run
      error_ = std::current_exception();
      return false;
    }
  }
  return true;
}
#endif

std::exception_ptr BlockRunner::run_rounds(uint3 block_index) {
  block_ = block_index;
  blockIdx = block_index;
  blockDim = config_.block;
  gridDim = config_.grid;
  std::memset(smem_, 0xFF, smem_alloc_);
  if (race_) race_->start_block(linear_block());
  serial_ = next_serial.fetch_add(1, std::memory_order_relaxed);
  far_waiting_ = 0;
  solo_arrived_ = 0;
  copies_.clear();
  landed_.clear();

  const unsigned bx = config_.block.x, by = config_.block.y;
  ready_.clear();
  for (unsigned id = 0; id < n_; ++id) {
    Thread& t = threads_[id];
    t.index = uint3{id % bx, (id / bx) % by, id / (bx * by)};
    t.state = State::ready;
    t.cluster_arrived = false;
    t.runner = this;
    t.id = id;
    t.fiber.start(
        stacks_,
        [](void* arg) {
          auto* thread = static_cast<Thread*>(arg);
          thread->runner->thread_main(thread->id);
        },
        &t);
    ready_.push_back(id);
  }
  std::fill(warp_waiting_.begin(), warp_waiting_.end(), 0u);
  std::fill(warp_exited_.begin(), warp_exited_.end(), 0u);
  live_ = n_;
  barrier_count_ = 0;
  barrier_true_ = 0;
  barrier_mixed_ = false;
  error_ = nullptr;
  if (config_.options.schedule == Schedule::shuffled) {
    const std::uint64_t linear =
        block_index.x + std::uint64_t{config_.grid.x} *
                            (block_index.y + std::uint64_t{config_.grid.y} * block_index.z);
    std::seed_seq seq{config_.options.seed, static_cast<unsigned>(linear),
                      static_cast<unsigned>(linear >> 32)};
    rng_.seed(seq);
  }

  BlockRunner* const outer = t_current;
  t_current = this;
  running_ = true;
  while (live_ > 0 && !error_) {
    if (ready_.empty()) {
      // Threads waiting for other blocks of the cluster (or for the grid before): the cluster
      // runs its other blocks, and this one again when it can go on.
      if (far_waiting_ > 0 && cluster_ != nullptr) {
        if (std::exception_ptr e = cluster_->park(rank_)) {
          error_ = std::move(e);
          break;
        }
        continue;
      }
      error_ = deadlock_report();
      break;
    }
    if (!host_turn()) break;
    order_round();
    for (round_pos_ = 0; round_pos_ < round_.size(); ++round_pos_) {
      Thread& t = threads_[round_[round_pos_]];
      current_ = round_[round_pos_];
      threadIdx = t.index;
      t.fiber.resume();  // where fibers switch directly, it comes back later in the round: yield()
      if (error_) break;
      // A cluster barrier completed: the cluster's blocks go on in rank order from rank 0. This
      // round's other threads run when this block has the turn again.
      if (cluster_ != nullptr && cluster_->restart_pending()) {
        ready_.insert(ready_.end(), round_.begin() + static_cast<std::ptrdiff_t>(round_pos_) + 1,
                      round_.end());
        if (std::exception_ptr e = cluster_->restart(rank_)) error_ = std::move(e);
        break;
      }
    }
  }
  // A bulk copy still in flight when the block ends: its barrier's phase never completed, so no
  // thread can have waited for its bytes.
  if (!error_ && !copies_.empty()) {
    const AsyncCopy& c = copies_.front();
    error_ =
        make_error(c.thread, "cuda::memcpy_async at " + format_location(c.loc) +
                                 " was still in flight when the block ended: its barrier's "
                                 "phase never completed (too few arrivals), so its bytes never "
                                 "landed");
  }
  copies_.clear();
  // After an error: unwind every unfinished fiber (FiberUnwind is thrown into it, running the
  // destructors of the kernel's locals) and recycle its stack.
  running_ = false;
  for (unsigned id = 0; id < n_; ++id) {
    if (threads_[id].fiber) {
      current_ = id;
      threadIdx = threads_[id].index;
      threads_[id].fiber.unwind();
    }
  }
  round_.clear();
  ready_.clear();
  t_current = outer;
  return error_;
}

void BlockRunner::order_round() {
  round_.swap(ready_);
  ready_.clear();
  switch (config_.options.schedule) {
    case Schedule::lane_order:
      if (!std::is_sorted(round_.begin(), round_.end())) std::sort(round_.begin(), round_.end());
      break;
    case Schedule::reverse_lanes:
      if (std::is_sorted(round_.begin(), round_.end()))
        std::reverse(round_.begin(), round_.end());
      else
        std::sort(round_.begin(), round_.end(), std::greater<>());
      break;
    case Schedule::shuffled:
      if (!std::is_sorted(round_.begin(), round_.end())) std::sort(round_.begin(), round_.end());
      std::shuffle(round_.begin(), round_.end(), rng_);
      break;
  }
}

void BlockRunner::thread_main(unsigned id) {
  try {
    config_.call.invoke(config_.call.bound);
  } catch (const FiberUnwind&) {
    throw;  // the block is being torn down: let the fiber unwind
  } catch (const KernelError&) {
    set_error(std::current_exception());
  } catch (const std::exception& e) {
    set_error(make_error(id, std::string("uncaught exception: ") + e.what()));
  } catch (...) {
    set_error(make_error(id, "uncaught exception of unknown type"));
  }
  thread_exit(id);
}

void BlockRunner::thread_exit(unsigned id) {
  threads_[id].state = State::exited;
  --live_;
  const unsigned warp = id / 32, lane = id % 32;
  warp_exited_[warp] |= 1u << lane;
  if (error_) return;
  if (live_ == 0 && cluster_ != nullptr) {
    // The block has ended: another block that may still read its shared memory is reported, and
    // a read that comes anyway finds poison.
    if (std::exception_ptr e = cluster_->block_exited(rank_)) set_error(std::move(e));
    std::memset(smem_, 0xFF, smem_alloc_);
    return;
  }
  // A lane waiting at a collective whose mask names this lane can never be released.
  for_lanes(warp_waiting_[warp], [&](unsigned l) {
    const Thread& w = threads_[warp * 32 + l];
    if (!error_ && (w.mask >> lane & 1u))
      set_error(make_error(warp * 32 + l, std::string(warp_op_name(w.op)) + " at " +
                                              format_location(w.loc) + " with mask " +
                                              format_mask(w.mask) + ": lane " +
                                              std::to_string(lane) + " named in the mask exited"));
  });
}

void BlockRunner::yield() {
  Fiber& leaving = threads_[current_].fiber;
  // Straight on to the round's next thread, where a switch is dear (fiber.h); the loop in
  // run_rounds() sees the round again only when a thread exits or the round ends. After an error,
  // or in a cluster (whose barrier may hand the turn to another block), back to the loop.
  if constexpr (Fiber::switches_directly) {
    if (!error_ && cluster_ == nullptr && round_pos_ + 1 < round_.size()) {
      current_ = round_[++round_pos_];
      Thread& next = threads_[current_];
      threadIdx = next.index;
      leaving.suspend_to(next.fiber);
      return;
    }
  }
  leaving.suspend();
}

void BlockRunner::set_error(std::exception_ptr e) {
  if (!error_) error_ = std::move(e);
}

std::exception_ptr BlockRunner::make_error(unsigned id, const std::string& what) const {
  return std::make_exception_ptr(
      KernelError(format_report(config_.kernel_name, block_, threads_[id].index, what)));
}

void BlockRunner::fail(const std::string& what) {
  throw KernelError(format_report(config_.kernel_name, block_, threads_[current_].index, what));
}

int BlockRunner::barrier(BarrierOp op, int predicate, const std::source_location& loc) {
  if (!running_) return 0;
  Thread& t = threads_[current_];
  t.state = State::barrier;
  t.loc = loc;
  t.arg = static_cast<std::int64_t>(op);
  if (barrier_count_ == 0) {
    barrier_loc_ = loc;
    barrier_mixed_ = false;
  } else if (!same_location(loc, barrier_loc_)) {
    barrier_mixed_ = true;
  }
  ++barrier_count_;
  if (predicate != 0) ++barrier_true_;
  if (barrier_count_ == n_) {
    if (barrier_mixed_) {
      std::exception_ptr e = deadlock_report();
      std::rethrow_exception(e);
    }
    for (unsigned id = 0; id < n_; ++id) {
      Thread& o = threads_[id];
      switch (static_cast<BarrierOp>(o.arg)) {
        case BarrierOp::plain:
          o.result = 0;
          break;
        case BarrierOp::count:
          o.result = barrier_true_;
          break;
        case BarrierOp::all:
          o.result = barrier_true_ == n_;
          break;
        case BarrierOp::any:
          o.result = barrier_true_ != 0;
          break;
      }
      o.state = State::ready;
      ready_.push_back(id);
    }
    barrier_count_ = 0;
    barrier_true_ = 0;
    if (race_) race_->block_barrier();
    // A landed bulk copy that some thread waited for is ordered before everything after this.
    std::erase_if(landed_, [](const LandedCopy& c) {
      return std::find(c.waited.begin(), c.waited.end(), true) != c.waited.end();
    });
    report_sync(0, 0, loc);
  }
  yield();
  return static_cast<int>(t.result);
}

unsigned BlockRunner::lanes_in_warp(unsigned warp) const {
  const unsigned count = std::min(32u, n_ - warp * 32);
  return count == 32 ? ~0u : (1u << count) - 1;
}

unsigned BlockRunner::active_mask() const {
  const unsigned warp = current_ / 32;
  return lanes_in_warp(warp) & ~warp_exited_[warp];
}

std::uint64_t BlockRunner::warp(WarpOp op, unsigned mask, std::uint64_t value, std::int64_t arg,
                                int width, const std::source_location& loc) {
  if (!running_) return value;
  const unsigned id = current_, warp = id / 32, lane = id % 32;
  const std::string where = std::string(warp_op_name(op)) + " at " + format_location(loc) +
                            " with mask " + format_mask(mask);
  if (!(mask >> lane & 1u))
    fail(where + ": the calling lane " + std::to_string(lane) + " is not in the mask");
  const unsigned exists = lanes_in_warp(warp);
  if (mask & ~exists)
    fail(where + ": lanes " + format_ranges(lanes_of(mask & ~exists)) +
         " named in the mask do not exist (warp " + std::to_string(warp) + " of this block has " +
         std::to_string(std::popcount(exists)) + " lanes)");
  if (mask & warp_exited_[warp])
    fail(where + ": lanes " + format_ranges(lanes_of(mask & warp_exited_[warp])) +
         " named in the mask exited");
  if (is_shuffle(op) && !valid_shuffle_width(width))
    fail(where + ": width " + std::to_string(width) + " is not a power of two in 1..32");

  Thread& t = threads_[id];
  t.state = State::warp;
  t.op = op;
  t.mask = mask;
  t.value = value;
  t.arg = arg;
  t.width = width;
  t.loc = loc;
  warp_waiting_[warp] |= 1u << lane;

  if ((warp_waiting_[warp] & mask) == mask) {
    bool same_group = true, other_kind = false;
    for_lanes(mask, [&](unsigned l) {
      const Thread& o = threads_[warp * 32 + l];
      if (o.mask != mask)
        same_group = false;
      else if (o.op != op)
        other_kind = true;
    });
    if (other_kind) {
      std::map<std::string, std::vector<unsigned>> kinds;
      for_lanes(mask, [&](unsigned l) {
        const Thread& o = threads_[warp * 32 + l];
        if (o.mask == mask)
          kinds[std::string(warp_op_name(o.op)) + " at " + format_location(o.loc)].push_back(l);
      });
      std::string what =
          "lanes of mask " + format_mask(mask) + " wait at different warp collectives:";
      bool first = true;
      for (const auto& [desc, lanes] : kinds) {
        what += (first ? " lanes " : ", lanes ") + format_ranges(lanes) + " at " + desc;
        first = false;
      }
      fail(what);
    }
    if (same_group) complete_warp_group(warp, mask);
  }
  yield();
  return t.result;
}

void BlockRunner::complete_warp_group(unsigned warp, unsigned mask) {
  const unsigned base = warp * 32;
  const WarpOp op = threads_[base + static_cast<unsigned>(std::countr_zero(mask))].op;
  switch (op) {
    case WarpOp::ballot:
    case WarpOp::all:
    case WarpOp::any: {
      unsigned bits = 0;
      for_lanes(mask, [&](unsigned l) {
        if (threads_[base + l].value != 0) bits |= 1u << l;
      });
      const std::uint64_t result = op == WarpOp::ballot ? bits
                                   : op == WarpOp::all  ? (bits == mask)
                                                        : (bits != 0);
      for_lanes(mask, [&](unsigned l) { threads_[base + l].result = result; });
      break;
    }
    case WarpOp::shfl_idx:
    case WarpOp::shfl_up:
    case WarpOp::shfl_down:
    case WarpOp::shfl_xor:
      for_lanes(mask, [&](unsigned l) {
        Thread& t = threads_[base + l];
        const unsigned src = shuffle_source(t.op, l, t.arg, t.width);
        // Reading a lane outside the mask is undefined in CUDA: give poison bits.
        t.result = (mask >> src & 1u) ? threads_[base + src].value : shuffle_poison;
      });
      break;
    case WarpOp::syncwarp:
      for_lanes(mask, [&](unsigned l) { threads_[base + l].result = 0; });
      report_sync(warp, mask, threads_[base + static_cast<unsigned>(std::countr_zero(mask))].loc);
      break;
    case WarpOp::reduce_add:
    case WarpOp::reduce_min:
    case WarpOp::reduce_max:
      complete_warp_reduction(warp, mask, op);
      break;
  }
  // Only __syncwarp orders memory between the lanes it names (racecheck.h): CUDA documents memory
  // ordering for __syncwarp, none for shuffles and votes (LLVM lets loads move across shfl.sync).
  // The same holds for what a lane in it has waited for (a landed bulk copy).
  if (op != WarpOp::syncwarp) return release_warp_group(warp, mask);
  if (race_) race_->warp_sync(warp, mask);
  for (LandedCopy& c : landed_) {
    bool any = false;
    for_lanes(mask, [&](unsigned l) { any = any || c.waited[base + l]; });
    if (any) for_lanes(mask, [&](unsigned l) { c.waited[base + l] = true; });
  }
  release_warp_group(warp, mask);
}

void BlockRunner::release_warp_group(unsigned warp, unsigned mask) {
  const unsigned base = warp * 32;
  for_lanes(mask, [&](unsigned l) {
    threads_[base + l].state = State::ready;
    ready_.push_back(base + l);
  });
  warp_waiting_[warp] &= ~mask;
}

void BlockRunner::complete_warp_reduction(unsigned warp, unsigned mask, WarpOp op) {
  const unsigned base = warp * 32;
  const bool is_signed = threads_[base + static_cast<unsigned>(std::countr_zero(mask))].arg != 0;
  std::uint32_t total = 0;
  bool first = true;
  const auto less = [is_signed](std::uint32_t a, std::uint32_t b) {
    return is_signed ? static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b) : a < b;
  };
  for_lanes(mask, [&](unsigned l) {
    const auto v = static_cast<std::uint32_t>(threads_[base + l].value);
    if (op == WarpOp::reduce_add)
      total += v;  // wraps, as the hardware's does
    else if (first || (op == WarpOp::reduce_min ? less(v, total) : less(total, v)))
      total = v;
    first = false;
  });
  for_lanes(mask, [&](unsigned l) { threads_[base + l].result = total; });
}

bool BlockRunner::check_access(const void* address, std::size_t bytes, AccessKind kind,
                               MemorySpace space, const void* base, std::size_t element_bytes,
                               const std::source_location& loc, void* stale) {
  if (!race_ || !running_) return false;
  if (space == MemorySpace::shared && config_.options.racecheck) {
    if (!copies_.empty() || !landed_.empty())
      if (auto conflict = async_copy_conflict(address, bytes, kind)) fail(*conflict);
    if (cluster_ != nullptr && cluster_->size() > 1)
      if (auto conflict = cluster_->check_shared(rank_, current_, address, bytes, kind, loc))
        fail(*conflict);
  }
  if (auto conflict =
          race_->access(current_, address, bytes, kind, space, base, element_bytes, loc))
    fail(*conflict);
  if (space != MemorySpace::global) return false;
  const RaceDetector::ClusterPoint where{
      cluster_ != nullptr ? cluster_->first_linear_block() : linear_block(), cluster_phase()};
  RaceDetector::GlobalResult r =
      race_->global_access(current_, address, bytes, kind, base, element_bytes, loc, where, stale);
  if (r.race) fail(*r.race);
  return r.stale;
}

void BlockRunner::note_atomic(const void* address, const char* name, bool wrote,
                              const std::source_location& loc) {
  if (race_ && running_) race_->atomic(current_, address, name, wrote, loc);
}

void BlockRunner::memory_fence(const std::source_location& loc) {
  if (race_ && running_) race_->fence(current_, loc);
}

std::string BlockRunner::describe_waits(const std::vector<unsigned>& ids) const {
  // Groups threads by what they wait at: "threads 0-31 at __syncthreads at k.cuh:3, ..."
  std::map<std::string, std::vector<unsigned>> groups;
  for (unsigned id : ids) {
    const Thread& t = threads_[id];
    std::string desc;
    switch (t.state) {
      case State::barrier:
        desc = "wait at __syncthreads at " + format_location(t.loc);
        break;
      case State::warp:
        desc = "wait at " + std::string(warp_op_name(t.op)) + " at " + format_location(t.loc) +
               " with mask " + format_mask(t.mask);
        break;
      case State::exited:
        desc = "exited";
        break;
      case State::ready:
        desc = "are runnable";
        break;
      case State::cluster:
        desc = std::string(t.arg ? "wait at the cluster's barrier_wait() at "
                                 : "wait at cluster.sync() at ") +
               format_location(t.loc);
        break;
      case State::dependency:
        desc = "wait at cudaGridDependencySynchronize() at " + format_location(t.loc);
        break;
      case State::mbarrier:
        desc = "wait at cuda::barrier wait at " + format_location(t.loc) + " for phase " +
               std::to_string(t.wait_phase);
        break;
    }
    groups[desc].push_back(id);
  }
  std::string out;
  for (const auto& [desc, members] : groups) {
    if (!out.empty()) out += ", ";
    out += "threads " + format_ranges(members) + " " + desc;
  }
  return out;
}

std::exception_ptr BlockRunner::deadlock_report() const {
  std::vector<unsigned> at_barrier, at_warp, exited, at_mbarrier, elsewhere;
  for (unsigned id = 0; id < n_; ++id) {
    switch (threads_[id].state) {
      case State::barrier:
        at_barrier.push_back(id);
        break;
      case State::warp:
        at_warp.push_back(id);
        break;
      case State::exited:
        exited.push_back(id);
        break;
      case State::mbarrier:
        at_mbarrier.push_back(id);
        break;
      case State::cluster:
      case State::dependency:
        elsewhere.push_back(id);
        break;
      case State::ready:
        break;
    }
  }
  if (at_warp.empty() && !at_mbarrier.empty()) {
    // A cuda::barrier phase that cannot complete: its missing arrivals would have to come from
    // threads that wait elsewhere or have exited.
    const Thread& w = threads_[at_mbarrier.front()];
    std::vector<unsigned> stuck;
    for (unsigned id = 0; id < n_; ++id)
      if (threads_[id].state != State::ready) stuck.push_back(id);
    std::string what = "deadlock: cuda::barrier wait at " + format_location(w.loc) +
                       " never completes: the barrier's phase " + std::to_string(w.wait_phase) +
                       " still waits for " + std::to_string(w.wait_bar->pending) + " of its " +
                       std::to_string(w.wait_bar->expected) + " arrivals";
    if (w.wait_bar->tx_bytes > 0)
      what += " (and " + std::to_string(w.wait_bar->tx_bytes) + " bytes of bulk copies)";
    return make_error(at_mbarrier.front(), what + ": " + describe_waits(stuck));
  }
  if (at_warp.empty() && !at_barrier.empty() && elsewhere.empty()) {
    std::map<std::string, std::vector<unsigned>> sites;
    for (unsigned id : at_barrier) sites[format_location(threads_[id].loc)].push_back(id);
    if (sites.size() > 1) {
      std::string what = "threads of the block wait at different __syncthreads:";
      bool first = true;
      for (const auto& [site, members] : sites) {
        what += (first ? " threads " : ", threads ") + format_ranges(members) + " at " + site;
        first = false;
      }
      if (!exited.empty()) what += "; threads " + format_ranges(exited) + " exited";
      return make_error(at_barrier.front(), what);
    }
    return make_error(at_barrier.front(),
                      "__syncthreads at " + format_location(threads_[at_barrier.front()].loc) +
                          " is not reached by threads " + format_ranges(exited) +
                          " of the block, which exited");
  }
  if (!at_warp.empty()) {
    const unsigned id = at_warp.front();
    const Thread& w = threads_[id];
    const unsigned base = id / 32 * 32;
    std::vector<unsigned> missing;
    for_lanes(w.mask, [&](unsigned l) {
      const Thread& o = threads_[base + l];
      if (o.state != State::warp || o.op != w.op || o.mask != w.mask) missing.push_back(base + l);
    });
    std::string what = "deadlock: " + std::string(warp_op_name(w.op)) + " at " +
                       format_location(w.loc) + " with mask " + format_mask(w.mask) +
                       " never completes: " + describe_waits(missing);
    return make_error(id, what);
  }
  std::vector<unsigned> all;
  for (unsigned id = 0; id < n_; ++id) all.push_back(id);
  return make_error(0, "deadlock: no thread can make progress: " + describe_waits(all));
}

}  // namespace rl::sim::detail

namespace rl::sim {
void set_sync_observer(SyncObserver observer) {
  detail::sync_observer.store(observer, std::memory_order_release);
}
}  // namespace rl::sim
