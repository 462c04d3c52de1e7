#include "common/sim/race_detector.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <string_view>

#include "common/sim/errors.h"

namespace rl::sim::detail {
namespace {

constexpr std::size_t word = 4;

const char* verb(AccessKind k) { return k == AccessKind::read ? "read" : "wrote"; }

}  // namespace

RaceDetector::RaceDetector(unsigned threads, const unsigned char* smem, std::size_t smem_bytes,
                           const unsigned char* map_begin, const unsigned char* map_end, dim3 grid,
                           bool report, bool late)
    : threads_(threads),
      smem_(smem),
      smem_bytes_(smem_bytes),
      map_begin_(map_begin),
      map_end_(map_end),
      words_((smem_bytes + word - 1) / word),
      clocks_(std::size_t{threads} * 32),
      grid_(grid),
      report_(report),
      late_(late),
      deltas_(threads) {}

void RaceDetector::next_epoch() {
  if (++epoch_ == 0) {  // wrapped: forget every record, as a new epoch would
    for (Cell& c : words_) c.epoch = 0;
    other_.clear();
    epoch_ = 1;
  }
}

void RaceDetector::start_block(std::uint64_t block) {
  block_ = block;
  common_ = Knowing{};
  if (dirty_) std::fill(deltas_.begin(), deltas_.end(), Knowing{});
  dirty_ = false;
  own_.clear();
  next_epoch();
  // global and static shared records never outlive their block
  if (!other_.empty()) other_.clear();
  std::fill(clocks_.begin(), clocks_.end(), 0u);
  for (unsigned t = 0; t < threads_; ++t) clocks_[std::size_t{t} * 32 + t % 32] = 1;
}

void RaceDetector::block_barrier() {
  next_epoch();
  if (!dirty_) return;
  // what any thread knew across blocks, every thread knows after the barrier
  for (Knowing& d : deltas_) {
    common_.merge(d);
    d = Knowing{};
  }
  dirty_ = false;
}

void RaceDetector::warp_sync(unsigned warp, unsigned mask) {
  if (dirty_) {
    Knowing joined;
    for (unsigned m = mask; m != 0; m &= m - 1)
      joined.merge(deltas_[warp * 32 + static_cast<unsigned>(std::countr_zero(m))]);
    for (unsigned m = mask; m != 0; m &= m - 1)
      deltas_[warp * 32 + static_cast<unsigned>(std::countr_zero(m))] = joined;
  }
  std::array<std::uint32_t, 32> joined{};
  for (unsigned m = mask; m != 0; m &= m - 1) {
    const std::uint32_t* c =
        &clocks_[(std::size_t{warp} * 32 + static_cast<unsigned>(std::countr_zero(m))) * 32];
    for (unsigned k = 0; k < 32; ++k) joined[k] = std::max(joined[k], c[k]);
  }
  for (unsigned m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    std::uint32_t* c = &clocks_[(std::size_t{warp} * 32 + lane) * 32];
    std::copy(joined.begin(), joined.end(), c);
    c[lane] = joined[lane] + 1;  // this lane's accesses from here on come after the collective
  }
}

bool RaceDetector::ordered_before_now(const Record& r, unsigned thread) const {
  if (r.thread == thread) return true;  // program order
  // other warps: only a __syncthreads orders
  if (r.thread / 32 != thread / 32) return false;
  return clocks_[std::size_t{thread} * 32 + r.thread % 32] >= r.clock;
}

RaceDetector::Cell& RaceDetector::cell_of(std::uintptr_t key) { return other_[key]; }

std::optional<RaceDetector::Conflict> RaceDetector::check(Cell& c, unsigned thread, AccessKind kind,
                                                          const Record& now) {
  if (c.epoch != epoch_) {  // everything recorded came before a __syncthreads
    c.epoch = epoch_;
    c.reads = 0;
    c.written = false;
  }
  if (c.written && !ordered_before_now(c.write, thread))
    return Conflict{c.write, AccessKind::write};
  if (kind == AccessKind::read) {
    unsigned kept = 0;
    for (unsigned k = 0; k < c.reads; ++k)
      if (!ordered_before_now(c.read[k], thread)) c.read[kept++] = c.read[k];
    // when full, the older reads still stand for it
    if (kept < kept_reads) c.read[kept++] = now;
    c.reads = static_cast<std::uint8_t>(kept);
    return std::nullopt;
  }
  for (unsigned k = 0; k < c.reads; ++k)
    if (!ordered_before_now(c.read[k], thread)) return Conflict{c.read[k], AccessKind::read};
  c.written = true;
  c.write = now;
  c.reads = 0;  // every read so far happens before this write, so before whatever follows it
  return std::nullopt;
}

std::string RaceDetector::location_name(const void* address, MemorySpace space, const void* base,
                                        std::size_t element_bytes) const {
  const auto a = reinterpret_cast<std::intptr_t>(address);
  const auto size = static_cast<std::intptr_t>(std::max<std::size_t>(element_bytes, 1));
  if (space == MemorySpace::shared) {
    const auto s = reinterpret_cast<std::intptr_t>(smem_);
    if (a >= reinterpret_cast<std::intptr_t>(map_begin_) &&
        a < reinterpret_cast<std::intptr_t>(map_end_))
      return "shared[" + std::to_string((a - s) / size) + "]";
    return "__shared__ array[" +
           std::to_string((a - reinterpret_cast<std::intptr_t>(base)) / size) + "]";
  }
  if (auto name = memory_model().name_of(address, static_cast<std::size_t>(size))) return *name;
  return "global[" + std::to_string((a - reinterpret_cast<std::intptr_t>(base)) / size) + "]";
}

std::string RaceDetector::report(const Conflict& c, const Record& now, AccessKind kind,
                                 const std::string& where) const {
  const char* hazard = c.earlier_kind == AccessKind::write
                           ? (kind == AccessKind::read ? "read-after-write" : "write-after-write")
                           : "write-after-read";
  const unsigned a = c.earlier.thread, b = now.thread;
  const std::string order = a / 32 == b / 32
                                ? "no __syncwarp naming both lanes (or __syncthreads) between them"
                                : "no __syncthreads between them (warps " + std::to_string(a / 32) +
                                      " and " + std::to_string(b / 32) + ")";
  return std::string("racecheck: ") + hazard + " race on " + where + ": thread " +
         std::to_string(a) + " " + verb(c.earlier_kind) + " it at " +
         format_location(c.earlier.loc) + ", then thread " + std::to_string(b) + " " + verb(kind) +
         " it at " + format_location(now.loc) + ", with " + order;
}

std::optional<std::string> RaceDetector::access(unsigned thread, const void* address,
                                                std::size_t bytes, AccessKind kind,
                                                MemorySpace space, const void* base,
                                                std::size_t element_bytes,
                                                const std::source_location& loc) {
  if (!report_) return std::nullopt;
  const auto* p = static_cast<const unsigned char*>(address);
  const Record now{loc, clocks_[std::size_t{thread} * 32 + thread % 32],
                   static_cast<std::uint16_t>(thread)};
  const bool in_map = p >= map_begin_ && p < map_end_;
  if (space == MemorySpace::shared && in_map) {
    if (p < smem_ || p + bytes > smem_ + smem_bytes_) {
      const std::size_t count = smem_bytes_ / std::max<std::size_t>(element_bytes, 1);
      return "out of range: " + location_name(address, space, base, element_bytes) +
             " is outside the block's " + "dynamic shared memory (" + std::to_string(count) +
             " elements, 0 to " + std::to_string(count == 0 ? 0 : count - 1) + ")";
    }
    const std::size_t offset = static_cast<std::size_t>(p - smem_);
    if (offset % word == 0 && bytes % word == 0) {
      for (std::size_t w = offset / word; w < (offset + bytes) / word; ++w)
        if (auto c = check(words_[w], thread, kind, now))
          return report(*c, now, kind, location_name(address, space, base, element_bytes));
      return std::nullopt;
    }
  }
  // Static __shared__ arrays, global memory, and narrow or unaligned elements: one record per
  // element address (accesses of different sizes that overlap are not compared).
  if (auto c = check(cell_of(reinterpret_cast<std::uintptr_t>(address)), thread, kind, now))
    return report(*c, now, kind, location_name(address, space, base, element_bytes));
  return std::nullopt;
}

// ---- across blocks ----

void RaceDetector::Knowing::merge(const Knowing& o) {
  for (const auto& [block, r] : o.acquired) {
    std::uint32_t& mine = acquired[block];
    mine = std::max(mine, r);
  }
  for (const Pending& p : o.pending) {
    auto it = std::find_if(pending.begin(), pending.end(),
                           [&](const Pending& q) { return q.location == p.location; });
    if (it == pending.end())
      pending.push_back(p);
    else
      it->read = std::max(it->read, p.read);
  }
  armed = std::max(armed, o.armed);
  acquired_any = acquired_any || o.acquired_any;
  synced = synced || o.synced;
  if (!read_atomic && o.read_atomic) {
    read_atomic = true;
    atomic_name = o.atomic_name;
    atomic_loc = o.atomic_loc;
  }
}

std::uint32_t RaceDetector::known_of(unsigned thread, std::uint64_t block) const {
  const auto find = [block](const BlockClock& c) {
    const auto it = c.find(block);
    return it == c.end() ? 0u : it->second;
  };
  return std::max(find(common_.acquired), find(deltas_[thread].acquired));
}

void RaceDetector::fence(unsigned thread, const std::source_location& loc) {
  Knowing& d = deltas_[thread];
  // The acquire half: every atomic read that happens before this fence synchronises with the
  // releases its location's log held when it read (the release sequence it read from).
  const auto acquire = [&](const std::vector<Pending>& pending) {
    for (const Pending& p : pending) {
      std::lock_guard lock(memory_model().stripe_of(p.address));
      for (std::uint32_t k = 0; k < p.read; ++k) {
        const CarriedRelease& c = p.location->log[k];
        // another grid's release (a dependent launch's primary): the grids' own order decides
        if (c.grid != memory_model().running()) continue;
        std::uint32_t& mine = d.acquired[c.block];
        mine = std::max(mine, c.release);
        if (c.knew)
          for (const auto& [block, r] : *c.knew) {
            std::uint32_t& also = d.acquired[block];
            also = std::max(also, r);
          }
      }
    }
  };
  acquire(common_.pending);
  acquire(d.pending);
  d.pending.clear();  // acquired: nothing more to take from them
  // an acquire pattern (an atomic read, then this fence), whatever the read found to acquire
  if (common_.read_atomic || d.read_atomic) d.acquired_any = true;
  // The release half: what happens before the fence in this block, and what the thread acquired.
  Release r;
  r.epoch = epoch_;
  r.thread = static_cast<std::uint16_t>(thread);
  std::copy_n(&clocks_[std::size_t{thread} * 32], 32, r.lanes.begin());
  if (!common_.acquired.empty() || !d.acquired.empty()) {
    auto knew = std::make_shared<BlockClock>(common_.acquired);
    for (const auto& [block, k] : d.acquired) (*knew)[block] = std::max((*knew)[block], k);
    r.knew = std::move(knew);
  }
  r.loc = loc;
  own_.push_back(r);
  memory_model().publish(memory_model().running(), block_, r);
  d.armed = static_cast<std::uint32_t>(own_.size());
  // the thread's accesses from here on come after the release
  ++clocks_[std::size_t{thread} * 32 + thread % 32];
  dirty_ = true;
}

void RaceDetector::atomic(unsigned thread, const void* address, const char* name, bool wrote,
                          const std::source_location& loc) {
  Knowing& d = deltas_[thread];
  AtomicLocation& l = memory_model().atomic_location(address);
  d.read_atomic = true;
  d.atomic_name = name;
  d.atomic_loc = loc;
  // The read half: the value it read is the newest in the modification order, so it reads from
  // every release sequence logged so far (every write is a read-modify-write, which continues
  // them). An empty log carries nothing to acquire.
  if (!l.log.empty()) {
    const auto read = static_cast<std::uint32_t>(l.log.size());
    auto it = std::find_if(d.pending.begin(), d.pending.end(),
                           [&](const Pending& p) { return p.location == &l; });
    if (it == d.pending.end())
      d.pending.push_back(Pending{address, &l, read});
    else
      it->read = read;
  }
  // The write half: a release that happens before it (a fence.sc in this thread, or in another
  // one of the block before a barrier) heads a release sequence through this write.
  const std::uint32_t armed = std::max(common_.armed, d.armed);
  if (wrote && armed > 0)
    l.log.push_back(CarriedRelease{memory_model().running(), block_, armed, own_[armed - 1].knew});
  dirty_ = true;
}

void RaceDetector::dependency_synced(unsigned thread) {
  deltas_[thread].synced = true;
  dirty_ = true;
}

bool RaceDetector::ordered_across(const GlobalAccess& e, unsigned thread,
                                  ClusterPoint where) const {
  if (auto by_grid = memory_model().grids_ordered(e.grid, memory_model().running(),
                                                  common_.synced || deltas_[thread].synced))
    return *by_grid;
  if (e.block == block_) return true;  // the block's own order: access() checks it
  if (e.cluster == where.cluster && e.cluster_phase < where.phase) return true;  // cluster.sync()
  return memory_model().released(known_of(thread, e.block), e);
}

RaceDetector::GlobalResult RaceDetector::global_access(unsigned thread, const void* address,
                                                       std::size_t bytes, AccessKind kind,
                                                       const void* base, std::size_t element_bytes,
                                                       const std::source_location& loc,
                                                       ClusterPoint where, void* stale_out) {
  MemoryModel& model = memory_model();
  const GlobalAccess now{loc,
                         block_,
                         model.running(),
                         where.cluster,
                         where.phase,
                         epoch_,
                         clocks_[std::size_t{thread} * 32 + thread % 32],
                         static_cast<std::uint16_t>(thread)};
  std::lock_guard lock(model.stripe_of(address));
  GlobalCell& c = model.cell(address);
  GlobalResult result;
  const auto race = [&](const GlobalAccess& e, AccessKind earlier) {
    if (report_)
      result.race = global_report(e, earlier, now, kind,
                                  location_name(address, MemorySpace::global, base, element_bytes));
  };
  if (kind == AccessKind::read) {
    if (c.written && !ordered_across(c.write, thread, where)) {
      race(c.write, AccessKind::write);
      if (late_ && stale_out != nullptr && c.initial_bytes == bytes) {
        std::memcpy(stale_out, c.initial.data(), bytes);
        result.stale = true;
      }
    }
    // one read kept per block (the newest): it stands for the block's earlier ones
    std::uint8_t k = 0;
    while (k < c.reads && (c.read[k].block != block_ || c.read[k].grid != now.grid)) ++k;
    if (k < c.reads)
      c.read[k] = now;
    else if (c.reads < c.read.size())
      c.read[c.reads++] = now;
    return result;
  }
  if (c.written && !ordered_across(c.write, thread, where)) {
    race(c.write, AccessKind::write);
  } else {
    for (std::uint8_t k = 0; k < c.reads; ++k)
      if (!ordered_across(c.read[k], thread, where)) {
        race(c.read[k], AccessKind::read);
        break;
      }
  }
  if (!c.written && late_ && bytes <= c.initial.size()) {
    std::memcpy(c.initial.data(), address, bytes);
    c.initial_bytes = bytes;
  }
  c.written = true;
  c.write = now;
  c.reads = 0;
  return result;
}

std::string RaceDetector::block_name(std::uint64_t block) const {
  const std::uint64_t gx = grid_.x, gy = grid_.y;
  return "block (" + std::to_string(block % gx) + "," + std::to_string(block / gx % gy) + "," +
         std::to_string(block / (gx * gy)) + ")";
}

std::string RaceDetector::missing(const GlobalAccess& e, AccessKind earlier,
                                  const GlobalAccess& now, AccessKind kind) const {
  const unsigned t = now.thread;
  const bool synced = common_.synced || deltas_[t].synced;
  if (memory_model().grids_ordered(e.grid, now.grid, synced).has_value()) {
    if (e.grid == memory_model().dependent())
      return "no cudaGridDependencySynchronize() between them: the earlier access is the dependent "
             "grid's, before its cudaGridDependencySynchronize(), which this grid overlaps";
    return "no cudaGridDependencySynchronize() before it: this grid may run before the grid it "
           "depends on has ended";
  }
  const std::string writer = block_name(e.block), reader = block_name(block_);
  const bool released = memory_model().release_covering(e).has_value();
  Knowing k = common_;
  k.merge(deltas_[t]);
  // A cuda::atomic_ref can carry the order itself: then that is a fix too, and the one a
  // handover without fences needs (lesson 12's ordered_ticket).
  const bool ordered_atomic =
      k.read_atomic && std::string_view(k.atomic_name).starts_with("cuda::atomic_ref");
  const std::string release_missing =
      "the release missing (no __threadfence() in " + writer + " after the " +
      (earlier == AccessKind::write ? "write" : "read") + " and before the atomic that signals it" +
      (ordered_atomic ? ", nor a release order on that atomic)" : ")");
  const std::string what = kind == AccessKind::write ? "write" : "read";
  const std::string acquire_missing =
      k.read_atomic
          ? "the acquire missing (no __threadfence() in " + reader + " after its " + k.atomic_name +
                " at " + format_location(k.atomic_loc) + " and before the " + what +
                (ordered_atomic ? ", nor an acquire order on the atomic that read the signal)"
                                : ")")
          : "the acquire missing (no atomic read of the signal followed by a "
            "__threadfence() in " +
                reader + " before the " + what + ")";
  if (!released && !k.acquired_any) return release_missing + " and " + acquire_missing;
  if (!released) return release_missing;
  if (!k.acquired_any) return acquire_missing;
  return "a release in " + writer + " and an acquire in " + reader +
         " that no atomic links: the acquire's atomic read did not read the value of an atomic "
         "written after that release (or of a read-modify-write after it)";
}

std::string RaceDetector::global_report(const GlobalAccess& e, AccessKind earlier,
                                        const GlobalAccess& now, AccessKind kind,
                                        const std::string& where) const {
  const char* hazard = earlier == AccessKind::write
                           ? (kind == AccessKind::read ? "read-after-write" : "write-after-write")
                           : "write-after-read";
  const std::string first =
      e.grid == now.grid ? block_name(e.block) : "the other grid's " + block_name(e.block);
  return std::string("racecheck: ") + hazard + " race on " + where + " across blocks: " + first +
         " thread " + std::to_string(e.thread) + " " + verb(earlier) + " it at " +
         format_location(e.loc) + ", then " + block_name(block_) + " thread " +
         std::to_string(now.thread) + " " + verb(kind) + " it at " + format_location(now.loc) +
         ", with " + missing(e, earlier, now, kind);
}

}  // namespace rl::sim::detail
