// The race detector of one BlockRunner: shadow state for every location the block's checked views
// touch, and the happens-before order that the block's synchronisation creates.
//
// Order. A completed __syncthreads orders everything before it with everything after it: it starts
// a new epoch, and shadow state from an older epoch counts as empty. Within an epoch, accesses of
// different warps are never ordered. Within a warp each lane keeps a vector clock over the 32
// lanes; a completed warp collective (__syncwarp, a shuffle, a vote) joins the clocks of the lanes
// its mask names and then advances each one's own entry. An access by lane a at own-clock k is
// ordered before a later access by lane b of the same warp iff b's clock for a has reached k.
//
// Shadow state per location (a 4-byte word of dynamic shared memory, or any other address): the
// last write and up to four reads since it that no later read of theirs orders (a read that happens
// after another one replaces it: a write unordered with the older read is unordered with the newer
// too). A read checks the write; a write checks the write and every kept read. The first conflict
// found is the report, so for a given schedule it is always the same pair.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <source_location>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/sim/racecheck.h"

namespace rl::sim::detail {

class RaceDetector {
 public:
  // `threads` per block; dynamic shared memory is [smem, smem + smem_bytes), inside the mapping
  // [map_begin, map_end) of which every other byte is outside it (the grader's "out of range").
  RaceDetector(unsigned threads, const unsigned char* smem, std::size_t smem_bytes,
               const unsigned char* map_begin, const unsigned char* map_end);

  void start_block();                            // a new block: nothing before it counts
  void block_barrier();                          // a __syncthreads completed
  void warp_sync(unsigned warp, unsigned mask);  // a warp collective of these lanes completed

  // Records one access by linear thread `thread`; returns the report of the first conflict it
  // makes (the text after "sim: kernel ... thread ...: "), or nullopt.
  std::optional<std::string> access(unsigned thread, const void* address, std::size_t bytes,
                                    AccessKind kind, MemorySpace space, const void* base,
                                    std::size_t element_bytes, const std::source_location& loc);

 private:
  struct Record {
    std::source_location loc;
    std::uint32_t clock = 0;
    std::uint16_t thread = 0;
  };
  static constexpr unsigned kept_reads = 4;
  struct Cell {
    std::uint32_t epoch = 0;  // 0: never touched; otherwise the epoch of the records below
    std::uint8_t reads = 0;
    bool written = false;
    Record write;
    std::array<Record, kept_reads> read;
  };

  // An earlier access that the current one conflicts with.
  struct Conflict {
    Record earlier;
    AccessKind earlier_kind;
  };

  bool ordered_before_now(const Record& r, unsigned thread) const;
  std::optional<Conflict> check(Cell& c, unsigned thread, AccessKind kind, const Record& now);
  Cell& cell_of(std::uintptr_t key);
  std::string location_name(const void* address, MemorySpace space, const void* base,
                            std::size_t element_bytes) const;
  std::string report(const Conflict& c, const Record& now, AccessKind kind,
                     const std::string& where) const;
  void next_epoch();

  unsigned threads_;
  const unsigned char* smem_;
  std::size_t smem_bytes_;
  const unsigned char* map_begin_;
  const unsigned char* map_end_;
  std::uint32_t epoch_ = 0;
  // one per 4-byte word of dynamic shared memory
  std::vector<Cell> words_;
  // static __shared__, global, unaligned or narrow
  std::unordered_map<std::uintptr_t, Cell> other_;
  // thread * 32 + lane: the thread's clock of that lane
  std::vector<std::uint32_t> clocks_;
};

}  // namespace rl::sim::detail
