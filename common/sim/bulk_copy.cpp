// cuda::barrier (an mbarrier) and cuda::memcpy_async (a bulk copy that completes the barrier's
// phase) on the simulator: BlockRunner's side (bulk_copy.h says what is modelled).
#include <algorithm>
#include <cstring>

#include "common/sim/block_runner.h"
#include "common/sim/errors.h"

namespace rl::sim::detail {

MBarrier& BlockRunner::checked_barrier(MBarrier* bar, const std::string& where) {
  if (bar->block_serial != serial_)
    fail(where +
         ": the cuda::barrier was not initialised in this block (init(&bar, count) by one "
         "thread, then __syncthreads(), before any thread uses it)");
  return *bar;
}

void BlockRunner::mbarrier_init(MBarrier* bar, std::int64_t expected,
                                const std::source_location& loc) {
  if (!running_) {  // host code: a plain object
    *bar = MBarrier{0, expected, expected, 0, 0};
    return;
  }
  const std::string where =
      "init(&barrier, " + std::to_string(expected) + ") at " + format_location(loc);
  if (expected < 1 || expected > (std::int64_t{1} << 20) - 1)
    fail(where + ": the expected arrival count must be 1 to 1048575 (an mbarrier's range)");
  for (const AsyncCopy& c : copies_)
    if (c.bar == bar)
      fail(where + ": the barrier still has a cuda::memcpy_async in flight (issued at " +
           format_location(c.loc) + ")");
  *bar = MBarrier{serial_, expected, expected, 0, 0};
}

std::uint64_t BlockRunner::mbarrier_arrive(MBarrier* bar, std::int64_t update, bool drop,
                                           const std::source_location& loc) {
  if (!running_) return 0;
  const std::string where =
      std::string(drop ? "arrive_and_drop" : "arrive") + " at " + format_location(loc);
  MBarrier& b = checked_barrier(bar, where);
  if (update < 1) fail(where + ": the arrival count must be positive");
  if (update > b.pending)
    fail(where + ": phase " + std::to_string(b.phase) + " of the cuda::barrier expects " +
         std::to_string(b.pending) + " more arrival(s) (init count " + std::to_string(b.expected) +
         "); this one is too many");
  const std::uint64_t token = b.phase;
  b.pending -= update;
  if (drop) --b.expected;  // from the next phase on
  if (b.pending == 0) complete_phase(bar);
  return token;
}

// Every expected arrival has come: the phase's bulk copies land (the simulator completes them as
// late as it can, when nothing else holds the phase open) and its waiters go on.
void BlockRunner::complete_phase(MBarrier* bar) {
  for (auto it = copies_.begin(); it != copies_.end();) {
    if (it->bar != bar) {
      ++it;
      continue;
    }
    std::memcpy(it->dst, it->src, it->bytes);
    if (race_)
      landed_.push_back(LandedCopy{bar, bar->phase, it->dst, it->bytes, it->thread, it->loc,
                                   std::vector<bool>(n_, false)});
    it = copies_.erase(it);
  }
  bar->tx_bytes = 0;
  ++bar->phase;
  bar->pending = bar->expected;
  for (unsigned id = 0; id < n_; ++id) {
    Thread& t = threads_[id];
    if (t.state != State::mbarrier || t.wait_bar != bar || t.wait_phase >= bar->phase) continue;
    t.state = State::ready;
    ready_.push_back(id);
    note_waited(id, bar, t.wait_phase);
  }
  // The race detector takes a completed phase for a barrier of the block: it may miss a race
  // between a thread that did not wait and one that did, but reports none that is not there.
  if (race_) race_->block_barrier();
}

void BlockRunner::note_waited(unsigned thread, const MBarrier* bar, std::uint64_t token) {
  for (LandedCopy& c : landed_)
    if (c.bar == bar && c.phase <= token) c.waited[thread] = true;
}

void BlockRunner::mbarrier_wait(MBarrier* bar, std::uint64_t token,
                                const std::source_location& loc) {
  if (!running_) return;
  MBarrier& b = checked_barrier(bar, "wait at " + format_location(loc));
  if (b.phase > token) {  // that phase has completed
    note_waited(current_, bar, token);
    return;
  }
  Thread& t = threads_[current_];
  t.state = State::mbarrier;
  t.wait_bar = bar;
  t.wait_phase = token;
  t.loc = loc;
  yield();
}

void BlockRunner::bulk_copy(void* dst, const void* src, std::size_t bytes, std::size_t align,
                            MBarrier* bar, const std::source_location& loc) {
  if (!running_) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const std::string where = "cuda::memcpy_async at " + format_location(loc);
  checked_barrier(bar, where);
  const auto misaligned = [align](const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % align != 0;
  };
  const std::string promise = "cuda::aligned_size_t<" + std::to_string(align) + "> promised";
  if (bytes % align != 0)
    fail(where + ": the size, " + std::to_string(bytes) + " bytes, is not a multiple of " +
         std::to_string(align) + ", as " + promise);
  if (misaligned(dst))
    fail(where + ": the destination is not " + std::to_string(align) + "-byte aligned, as " +
         promise);
  if (misaligned(src))
    fail(where + ": the source is not " + std::to_string(align) + "-byte aligned, as " + promise);
  if (!in_dynamic_shared(dst, bytes) && !in_static_shared(dst, bytes))
    fail(where + ": the destination (" + std::to_string(bytes) +
         " bytes) is not in this block's shared memory: a bulk copy (cp.async.bulk) writes "
         "shared memory");
  for (const AsyncCopy& c : copies_)
    if (static_cast<unsigned char*>(dst) < c.dst + c.bytes &&
        c.dst < static_cast<unsigned char*>(dst) + bytes)
      fail(where + ": its destination overlaps that of the copy issued at " +
           format_location(c.loc) + ", still in flight");
  if (bytes == 0) return;
  // Until the phase completes the destination holds nothing a thread may read.
  std::memset(dst, 0xFF, bytes);
  copies_.push_back(AsyncCopy{bar, static_cast<unsigned char*>(dst),
                              static_cast<const unsigned char*>(src), bytes, current_, loc});
  bar->tx_bytes += static_cast<std::int64_t>(bytes);
}

std::string BlockRunner::shared_name(const void* address, std::size_t element_bytes) const {
  const auto* p = static_cast<const unsigned char*>(address);
  if (in_dynamic_shared(p, 1))
    return "shared[" +
           std::to_string(static_cast<std::size_t>(p - smem_) /
                          std::max<std::size_t>(element_bytes, 1)) +
           "]";
  return "__shared__ memory";
}

std::optional<std::string> BlockRunner::async_copy_conflict(const void* address, std::size_t bytes,
                                                            AccessKind kind) const {
  const auto* p = static_cast<const unsigned char*>(address);
  const char* verb = kind == AccessKind::read ? "read" : "wrote";
  const std::string who = "racecheck: thread " + std::to_string(current_) + " " + verb + " " +
                          shared_name(address, bytes);
  for (const AsyncCopy& c : copies_)
    if (p < c.dst + c.bytes && c.dst < p + bytes)
      return who + " while the cuda::memcpy_async issued by thread " + std::to_string(c.thread) +
             " at " + format_location(c.loc) +
             " was still writing it: wait on its barrier (bar.wait(token) or "
             "bar.arrive_and_wait()) first";
  for (const LandedCopy& c : landed_)
    if (p < c.dst + c.bytes && c.dst < p + bytes && !c.waited[current_])
      return who + ", which the cuda::memcpy_async issued by thread " + std::to_string(c.thread) +
             " at " + format_location(c.loc) +
             " wrote, without having waited on its barrier's phase (nor passed a __syncthreads "
             "after a thread that did)";
  return std::nullopt;
}

}  // namespace rl::sim::detail
