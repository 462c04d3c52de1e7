// The entry points through which kernel code (the inline device API in sync.h and
// warp.h) reaches the block scheduler of the host thread it runs on.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <source_location>

namespace rl::sim {

// The running block's dynamic shared memory (16-byte aligned, fresh per block, every
// byte 0xFF before the block starts: reads of uninitialised floats give NaN).
void* dynamic_shared_base();
// Its size in bytes (the launch's dynamic_smem_bytes).
std::size_t dynamic_shared_bytes();

// For a memory-fault handler (the grader's): writes into buf one line saying which kernel, block
// and thread faulted at `address`, and whether it lies just past dynamic shared memory. Allocates
// nothing. Returns false on a host thread that is not running a block.
bool describe_fault(const void* address, char* buf, std::size_t size) noexcept;

// A memory-fault handler's way to report a fault in a kernel once, and the same fault on every run.
// On a host thread running a block of a launch it writes the describe_fault line into a buffer of
// its own and does not return: no further block of the launch starts, the blocks already running on
// the launch's other host threads run on to their end (or to their own fault), and the last of the
// launch's host threads to stop calls `report` once, with the line of the lowest faulting block (in
// it, the first thread to fault in the launch's schedule: in lane order, the lowest). Every block
// below the first one to fault has started by then (blocks start in order), so which block is
// named does not depend on the host threads' timing. `report` must end the process. Returns false,
// doing nothing, on a host thread that runs no block. Allocates nothing.
using FaultReport = void (*)(const char* line);
bool stop_on_kernel_fault(const void* address, FaultReport report) noexcept;

// What a trace recorder hears of synchronisation (common/device/traced.h records it as barrier
// events): called on the host thread that runs the block, once every thread of the block has passed
// a __syncthreads or a cluster.sync() (warp_mask 0; for a cluster.sync(), once per block of the
// cluster, on the host thread of the block whose thread completed it), or once the lanes in
// warp_mask of warp `warp` have passed a __syncwarp. `block` is the linear block index, `line` the line of the call.
struct SyncEvent {
  unsigned block = 0;
  unsigned warp = 0;
  unsigned warp_mask = 0;
  unsigned line = 0;
};
using SyncObserver = void (*)(const SyncEvent&);
// Null stops the reports. Set it only while no launch runs.
void set_sync_observer(SyncObserver observer);

// The __threadfence() (and __threadfence_system()) calls kernel code made since the last
// reset_fences_called(), and the lowest source line among them (0: none). The fences that
// cuda::atomic_ref's memory orders stand for are not counted: a grade can tell a handover ordered by
// its atomic from one ordered by fences (lesson 12's ordered_ticket).
struct FencesCalled {
  std::uint64_t count = 0;
  unsigned lowest_line = 0;
};
FencesCalled fences_called();
// Set it only while no launch runs.
void reset_fences_called();

// What the early cluster of the last overlapping launch did (programmatic dependent launch: the
// dependent grid's first cluster, run up to its cudaGridDependencySynchronize() before the grid it
// depends on runs): the __syncthreads thread 0 of its block 0 reached before it waited, and whether
// it waited at all (false: it ran to its end). `ran` is false until such a launch has run. A grade
// can tell a kernel that does its own block's work before it waits from one that waits first
// (lesson 13's late_wait).
struct EarlyRun {
  bool ran = false;
  bool waited = false;
  unsigned barriers = 0;
};
EarlyRun last_early_run();

// The loads thread 0 of block 0 issued before its first addition, counted since
// reset_loads_before_first_add() in a traced run (common/device/traced.h reports its __ldg and
// __ldcg loads and its additions; untraced code reports nothing). `added` is false until that
// thread has added; the count stops there, so a later launch's thread 0 adds nothing to it. A grade
// can tell a thread that issues its next loads before it adds the ones it holds (lesson 11's
// load_ahead) from one that adds each load as it comes.
struct LoadsBeforeAdd {
  std::uint64_t loads = 0;
  bool added = false;
};
LoadsBeforeAdd loads_before_first_add();
// Set it only while no launch runs.
void reset_loads_before_first_add();

// The times kernel code mapped another block's shared memory (cluster.map_shared_rank naming a
// rank not its own, to access it) since reset_remote_shared_maps(), every block's. A grade can tell
// a cluster whose blocks hand their sums over in distributed shared memory from one whose blocks
// meet in global memory (lesson 14).
std::uint64_t remote_shared_maps();
// Set it only while no launch runs.
void reset_remote_shared_maps();

// Gives a global buffer a name for race reports ("partials[17]" rather than "global[17]"); a later
// name for overlapping bytes replaces it, and an empty name only forgets the old one (call it
// before the buffer is freed).
void name_memory(const void* base, std::size_t bytes, const char* name);

namespace detail {

// Whether the simulator's options ask for checked accesses (race checking or late visibility: set by
// set_options). A plain flag, read by every checked access and atomic: set it only while no launch
// runs, as the options themselves.
extern bool racecheck_requested;

// ---- memory ordering across blocks (memory_model.h) ----

// An atomic on `address`: atomic_begin before it (it holds the location's lock, so that the order
// of the atomic's effects and of the model's log agree), atomic_end after it (`wrote`: it wrote).
void atomic_begin(const void* address);
void atomic_end(const void* address, const char* name, bool wrote, const std::source_location& loc);
// __threadfence(): a fence.sc at GPU scope.
void memory_fence(const std::source_location& loc);
// Counts a __threadfence() of kernel code (fences_called).
void count_fence(const std::source_location& loc);
// A traced load and a traced addition of kernel code (loads_before_first_add).
void note_traced_load();
void note_traced_add();
// Whether an early cluster is running (last_early_run counts its barriers), and the count.
extern std::atomic<bool> early_running;
extern std::atomic<unsigned> early_barriers;
// map_shared_rank calls naming another block's shared memory (remote_shared_maps).
extern std::atomic<std::uint64_t> remote_maps;

enum class BarrierOp : unsigned char { plain, count, all, any };

enum class WarpOp : unsigned char {
  syncwarp,
  shfl_idx,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  all,
  any,
  reduce_add,  // __reduce_add_sync: arg 1 for int, 0 for unsigned (wrapping sum either way)
  reduce_min,  // __reduce_min_sync
  reduce_max,  // __reduce_max_sync
};

const char* warp_op_name(WarpOp op);

// __syncthreads family: blocks until every thread of the block arrives; returns the
// reduction of `predicate` that `op` asks for (0 for plain).
int block_barrier(BarrierOp op, int predicate, const std::source_location& loc);

// Warp collective: blocks until every lane named in `mask` arrives at the same kind
// of collective, then returns this lane's result. `value` carries the lane's bits
// (shuffle) or predicate; `arg` the source lane, delta or lane mask.
std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, std::int64_t arg,
                              int width, const std::source_location& loc);

// Lanes of the calling thread's warp that have not exited.
unsigned active_mask();

// ---- clusters (cluster.h, cooperative_groups.h) ----

// The cluster of the running block: its size in blocks (1 outside a cluster launch) and the
// block's rank in it.
struct ClusterShape {
  unsigned blocks = 1;
  unsigned rank = 0;
};
ClusterShape cluster_shape();
// cluster.sync(): blocks until every thread of every block of the cluster arrives.
void cluster_barrier(const std::source_location& loc);
// The same in two halves: barrier_arrive() arrives and goes on; barrier_wait() blocks until every
// thread of the cluster has arrived.
void cluster_arrive(const std::source_location& loc);
void cluster_wait(const std::source_location& loc);
// map_shared_rank(addr, rank): the address in block `rank` of the cluster that corresponds to
// `addr` in the calling block's shared memory (dynamic or static). `record` says that the caller
// will access it (checked against the target block's exit); false for a view's base.
void* map_shared_rank(const void* addr, int rank, bool record, const std::source_location& loc);
// query_shared_rank(addr): the rank of the block whose shared memory holds `addr`.
unsigned query_shared_rank(const void* addr, const std::source_location& loc);

// ---- programmatic dependent launch (pdl.h) ----

// cudaGridDependencySynchronize(): waits until the grid this one depends on has completed.
void grid_dependency_sync(const std::source_location& loc);

// ---- cuda::barrier and cuda::memcpy_async (bulk_copy.h) ----

// A block-scope cuda::barrier's state (an mbarrier): it lives where the barrier object lives, in
// the block's shared memory.
struct MBarrier {
  std::uint64_t block_serial = 0;  // the block whose init() set it up (0: never initialised)
  std::int64_t expected = 0;       // arrivals that complete a phase
  std::int64_t pending = 0;        // arrivals the current phase still waits for
  std::int64_t tx_bytes = 0;       // bytes of bulk copies in flight in the current phase
  std::uint64_t phase = 0;         // phases completed so far
};
void mbarrier_init(MBarrier* bar, std::int64_t expected, const std::source_location& loc);
// Arrives (`update` times; `drop`: and leaves the barrier for later phases); returns the token,
// the number of the phase arrived at.
std::uint64_t mbarrier_arrive(MBarrier* bar, std::int64_t update, bool drop,
                              const std::source_location& loc);
// Blocks until phase `token` of the barrier has completed.
void mbarrier_wait(MBarrier* bar, std::uint64_t token, const std::source_location& loc);
// cuda::memcpy_async(dst, src, size, bar): a bulk copy from global into shared memory whose bytes
// land when the barrier's current phase completes. `align` is the alignment the caller promised
// (cuda::aligned_size_t<N>), 1 for a plain size.
void bulk_copy(void* dst, const void* src, std::size_t bytes, std::size_t align, MBarrier* bar,
               const std::source_location& loc);

}  // namespace detail
}  // namespace rl::sim
