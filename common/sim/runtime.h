// The entry points through which kernel code (the inline device API in sync.h and
// warp.h) reaches the block scheduler of the host thread it runs on.
#pragma once
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
// a __syncthreads (warp_mask 0), or once the lanes in warp_mask of warp `warp` have passed a
// __syncwarp. `block` is the linear block index, `line` the line of the call.
struct SyncEvent {
  unsigned block = 0;
  unsigned warp = 0;
  unsigned warp_mask = 0;
  unsigned line = 0;
};
using SyncObserver = void (*)(const SyncEvent&);
// Null stops the reports. Set it only while no launch runs.
void set_sync_observer(SyncObserver observer);

namespace detail {

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

}  // namespace detail
}  // namespace rl::sim
