// What the blocks of a launch share about global memory, for the race detector's model of CUDA's
// memory ordering across blocks (README.md, "Memory ordering across blocks"): the global accesses
// that checked views made (one shadow cell per element address), each atomic location's release
// sequence, every block's releases, the grid that runs, and the names of buffers.
//
// The per-block side (which thread knows which release) lives in RaceDetector; this is the part that
// blocks on different host threads read and write, behind striped locks.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <source_location>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rl::sim::detail {

// Per block (linear index): how many of its releases a thread knows of. Knowing release r of a
// block is taken as knowing its releases 1..r too (lenient where one block releases from several
// unordered threads: a missed race, never a false one).
using BlockClock = std::unordered_map<std::uint64_t, std::uint32_t>;

// What one release of a block (a __threadfence()) covers of that block's own accesses: those of an
// earlier barrier epoch, and those of the releasing thread's warp up to the lane clocks it had.
// `knew`: what the releasing thread had acquired from other blocks (passed on: causality is
// transitive).
struct Release {
  std::uint32_t epoch = 0;
  std::uint16_t thread = 0;
  std::array<std::uint32_t, 32> lanes{};
  std::shared_ptr<const BlockClock> knew;
  std::source_location loc;
};

// One global access, as the other blocks see it.
struct GlobalAccess {
  std::source_location loc;
  std::uint64_t block = 0;  // linear
  std::uint64_t grid = 0;   // serial of the grid that made it
  std::uint64_t cluster = 0;
  std::uint64_t cluster_phase = 0;
  std::uint32_t epoch = 0;
  std::uint32_t clock = 0;
  std::uint16_t thread = 0;
};

inline bool covers(const Release& r, const GlobalAccess& a) {
  if (a.epoch != r.epoch) return a.epoch < r.epoch;
  return a.thread / 32 == r.thread / 32 && r.lanes[a.thread % 32] >= a.clock;
}

// A release carried by an atomic write into its location's release sequence.
struct CarriedRelease {
  std::uint64_t grid = 0;  // serial of the grid whose block released
  std::uint64_t block = 0;
  std::uint32_t release = 0;
  std::shared_ptr<const BlockClock> knew;
};

// An atomic location: the releases its writes carried, in modification order. Every write the
// simulator's atomics make is a read-modify-write, which continues every release sequence before
// it, so a read of the location synchronises (through an acquire) with every release logged
// before it in this launch.
struct AtomicLocation {
  std::vector<CarriedRelease> log;
};

struct GlobalCell {
  bool written = false;
  std::uint8_t reads = 0;
  GlobalAccess write;
  std::array<GlobalAccess, 4> read;
  // late visibility: the bytes before the first write of this launch
  std::array<unsigned char, 32> initial{};
  std::size_t initial_bytes = 0;
};

class MemoryModel {
 public:
  static constexpr std::size_t stripes = 64;

  // A grid starts after everything before it has ended (a kernel boundary in one stream): every
  // record of earlier grids is forgotten.
  void begin_grid();
  // The overlap of a programmatic dependent launch: `dependent` starts, `primary` runs, then the
  // dependent runs on. Records survive across the three phases; set_running says which runs.
  void begin_overlap();
  void end_overlap() { overlap_ = false; }
  bool in_overlap() const { return overlap_; }
  void set_running(std::uint64_t grid) { running_ = grid; }
  std::uint64_t new_grid_serial();
  void set_dependency(std::uint64_t primary, std::uint64_t dependent) {
    primary_ = primary;
    dependent_ = dependent;
  }
  std::uint64_t running() const { return running_; }
  std::uint64_t dependent() const { return dependent_; }
  // Whether an access of grid `earlier` is ordered before one of grid `later` by the grids alone:
  // nullopt when the same grid; false for the dependent's accesses against its primary's (those
  // before its cudaGridDependencySynchronize() overlap the primary); `synced` when `later` depends
  // on `earlier`.
  std::optional<bool> grids_ordered(std::uint64_t earlier, std::uint64_t later, bool synced) const;

  std::mutex& stripe_of(const void* address);
  // With stripe_of(address) held:
  GlobalCell& cell(const void* address);
  AtomicLocation& atomic_location(const void* address);

  // A block's releases (1-based), published for the other blocks' checks: those of block
  // `a.block` of grid `a.grid` are the ones that can cover an access `a`.
  void publish(std::uint64_t grid, std::uint64_t block, const Release& r);
  // Whether one of the first `known` releases of the block that made `a` covers it (0: none known).
  bool released(std::uint32_t known, const GlobalAccess& a);
  // The fence of that block's first release that covers `a`, if any.
  std::optional<std::source_location> release_covering(const GlobalAccess& a);

  // Names of global buffers for reports: "partials[17]" instead of "global[17]".
  void name(const void* base, std::size_t bytes, std::string name);
  std::optional<std::string> name_of(const void* address, std::size_t element_bytes);

 private:
  std::array<std::mutex, stripes> locks_;
  std::array<std::unordered_map<std::uintptr_t, GlobalCell>, stripes> cells_;
  std::array<std::unordered_map<std::uintptr_t, std::unique_ptr<AtomicLocation>>, stripes> atomics_;
  std::mutex releases_lock_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<Release>>
      releases_;  // (grid, block)
  std::mutex names_lock_;
  std::vector<std::pair<std::pair<std::uintptr_t, std::size_t>, std::string>> names_;
  std::uint64_t serial_ = 0;
  std::uint64_t running_ = 0;
  std::uint64_t primary_ = 0;
  std::uint64_t dependent_ = 0;
  bool overlap_ = false;
};

MemoryModel& memory_model();

}  // namespace rl::sim::detail
