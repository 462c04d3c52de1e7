// The race detector of one BlockRunner: shadow state for every location the block's checked views
// touch, and the happens-before order that the block's synchronisation creates.
//
// Order within the block. A completed __syncthreads orders everything before it with everything
// after it: it starts a new epoch, and shadow state from an older epoch counts as empty. Within an
// epoch, accesses of different warps are never ordered. Within a warp each lane keeps a vector clock
// over the 32 lanes; a completed __syncwarp joins the clocks of the lanes its mask names and then
// advances each one's own entry (shuffles and votes order no memory). An access by lane a at
// own-clock k is ordered before a later access by lane b of the same warp iff b's clock for a has
// reached k.
//
// Shadow state per location (a 4-byte word of dynamic shared memory, or any other address): the
// last write and up to four reads since it that no later read of theirs orders (a read that happens
// after another one replaces it: a write unordered with the older read is unordered with the newer
// too). A read checks the write; a write checks the write and every kept read. The first conflict
// found is the report, so for a given schedule it is always the same pair.
//
// Order across blocks (global memory; memory_model.h keeps what the blocks share). Every
// __threadfence() is a fence.sc at GPU scope: a release of what happens before it in the block (a
// Release: the epoch and the lane clocks it covers) and an acquire of every atomic read that happens
// before it. An atomic write carries the latest release that happens before it into its location's
// log; an atomic read notes how much of that log it read, and the next fence that the read happens
// before (in the same thread, or in another after a barrier or __syncwarp) acquires it: the reader
// then knows those releases, and each covers the writer's accesses before it. Knowledge is per
// thread until a barrier (or a __syncwarp) shares it.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <source_location>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/sim/memory_model.h"
#include "common/sim/racecheck.h"
#include "common/sim/vector_types.h"

namespace rl::sim::detail {

class RaceDetector {
 public:
  // `threads` per block; dynamic shared memory is [smem, smem + smem_bytes), inside the mapping
  // [map_begin, map_end) of which every other byte is outside it (the grader's "out of range").
  // `grid` names other blocks in reports. `report`: races are reported (Options::racecheck);
  // `late`: reads of other blocks' writes that nothing orders see the value from before them
  // (Options::late_visibility).
  RaceDetector(unsigned threads, const unsigned char* smem, std::size_t smem_bytes,
               const unsigned char* map_begin, const unsigned char* map_end, dim3 grid, bool report,
               bool late);

  void start_block(std::uint64_t block);         // a new block: nothing before it counts
  void block_barrier();                          // a __syncthreads completed
  void warp_sync(unsigned warp, unsigned mask);  // a __syncwarp of these lanes completed

  // Records one access by linear thread `thread`; returns the report of the first conflict it
  // makes within the block (the text after "sim: kernel ... thread ...: "), or nullopt.
  std::optional<std::string> access(unsigned thread, const void* address, std::size_t bytes,
                                    AccessKind kind, MemorySpace space, const void* base,
                                    std::size_t element_bytes, const std::source_location& loc);

  // ---- across blocks ----
  // The cluster a global access is made in, and how many cluster barriers it has completed.
  struct ClusterPoint {
    std::uint64_t cluster = 0;
    std::uint64_t phase = 0;
  };
  struct GlobalResult {
    std::optional<std::string> race;  // the report of a race with another block
    bool stale = false;               // (late visibility) `stale_out` holds what the read sees
  };
  // A global access checked against the other blocks' (and grids') accesses of the location. For a
  // read, `stale_out` (room for `bytes`) receives the value from before another block's write that
  // nothing orders before it, when late visibility is on.
  GlobalResult global_access(unsigned thread, const void* address, std::size_t bytes,
                             AccessKind kind, const void* base, std::size_t element_bytes,
                             const std::source_location& loc, ClusterPoint where, void* stale_out);
  void fence(unsigned thread, const std::source_location& loc);  // a __threadfence()
  // An atomic on `address` (its stripe of the memory model held, so that its place in the
  // location's modification order and the log agree); `wrote`: it wrote (a failed CAS only reads).
  void atomic(unsigned thread, const void* address, const char* name, bool wrote,
              const std::source_location& loc);
  void dependency_synced(unsigned thread);  // cudaGridDependencySynchronize() returned

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

  // What a thread knows across blocks (or, in common_, every thread of the block since a barrier).
  struct Pending {  // an atomic read not yet acquired: the first `read` entries of the log
    const void* address;
    AtomicLocation* location;
    std::uint32_t read;
  };
  struct Knowing {
    BlockClock acquired;
    std::vector<Pending> pending;
    std::uint32_t armed = 0;  // this block's latest release that happens before here
    bool acquired_any = false;
    bool read_atomic = false;
    bool synced = false;  // passed cudaGridDependencySynchronize()
    const char* atomic_name = nullptr;
    std::source_location atomic_loc;
    void merge(const Knowing& o);
  };
  std::uint32_t known_of(unsigned thread, std::uint64_t block) const;
  bool ordered_across(const GlobalAccess& e, unsigned thread, ClusterPoint where) const;
  std::string block_name(std::uint64_t block) const;
  std::string global_report(const GlobalAccess& e, AccessKind earlier, const GlobalAccess& now,
                            AccessKind kind, const std::string& where) const;
  std::string missing(const GlobalAccess& e, AccessKind earlier, const GlobalAccess& now,
                      AccessKind kind) const;

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

  dim3 grid_;
  bool report_;
  bool late_;
  std::uint64_t block_ = 0;
  Knowing common_;
  std::vector<Knowing> deltas_;  // per thread, since the last barrier
  bool dirty_ = false;           // some delta is not empty
  std::vector<Release> own_;     // this block's releases (own_[r - 1] is release r)
};

}  // namespace rl::sim::detail
