#include "common/sim/race_detector.h"

#include <algorithm>
#include <bit>

#include "common/sim/errors.h"

namespace rl::sim::detail {
namespace {

constexpr std::size_t word = 4;

const char* verb(AccessKind k) { return k == AccessKind::read ? "read" : "wrote"; }

}  // namespace

RaceDetector::RaceDetector(unsigned threads, const unsigned char* smem, std::size_t smem_bytes,
                           const unsigned char* map_begin, const unsigned char* map_end)
    : threads_(threads),
      smem_(smem),
      smem_bytes_(smem_bytes),
      map_begin_(map_begin),
      map_end_(map_end),
      words_((smem_bytes + word - 1) / word),
      clocks_(std::size_t{threads} * 32) {}

void RaceDetector::next_epoch() {
  if (++epoch_ == 0) {  // wrapped: forget every record, as a new epoch would
    for (Cell& c : words_) c.epoch = 0;
    other_.clear();
    epoch_ = 1;
  }
}

void RaceDetector::start_block() {
  next_epoch();
  // global and static shared records never outlive their block
  if (!other_.empty()) other_.clear();
  std::fill(clocks_.begin(), clocks_.end(), 0u);
  for (unsigned t = 0; t < threads_; ++t) clocks_[std::size_t{t} * 32 + t % 32] = 1;
}

void RaceDetector::block_barrier() { next_epoch(); }

void RaceDetector::warp_sync(unsigned warp, unsigned mask) {
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

}  // namespace rl::sim::detail
