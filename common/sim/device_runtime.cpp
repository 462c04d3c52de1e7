// Kernel-facing entry points: forward to the BlockRunner of this host thread.
#include <atomic>
#include <cstdio>
#include <string>

#include "common/sim/block_runner.h"
#include "common/sim/builtins.h"
#include "common/sim/errors.h"
#include "common/sim/memory_model.h"
#include "common/sim/runtime.h"

namespace rl::sim {
namespace {

detail::BlockRunner& runner_for(const char* what) {
  detail::BlockRunner* r = detail::BlockRunner::current();
  if (r == nullptr)
    throw KernelError(std::string("sim: ") + what + " called outside a kernel launch");
  return *r;
}

}  // namespace

void name_memory(const void* base, std::size_t bytes, const char* name) {
  detail::memory_model().name(base, bytes, name);
}

void* dynamic_shared_base() { return runner_for("dynamic_shared_base()").shared_base(); }

std::size_t dynamic_shared_bytes() { return runner_for("dynamic_shared_bytes()").shared_bytes(); }

bool describe_fault(const void* address, char* buf, std::size_t size) noexcept {
  const detail::BlockRunner* r = detail::BlockRunner::current();
  if (r == nullptr) return false;
  const uint3 b = r->block_index(), t = r->thread_index();
  std::snprintf(buf, size, "sim: kernel '%s' block (%u,%u,%u) thread (%u,%u,%u): %s",
                r->kernel_name(), b.x, b.y, b.z, t.x, t.y, t.z,
                r->in_shared_guard(address)
                    ? "read or wrote past the end of dynamic shared memory"
                    : "touched memory it does not own (an out-of-bounds index?)");
  return true;
}

void kernel_error(const std::string& what) {
  detail::BlockRunner* r = detail::BlockRunner::current();
  if (r == nullptr) {
    std::string line = "sim: (outside a kernel launch): " + what;
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    throw KernelError(line);
  }
  r->fail(what);
}

namespace detail {

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::syncwarp:
      return "__syncwarp";
    case WarpOp::shfl_idx:
      return "__shfl_sync";
    case WarpOp::shfl_up:
      return "__shfl_up_sync";
    case WarpOp::shfl_down:
      return "__shfl_down_sync";
    case WarpOp::shfl_xor:
      return "__shfl_xor_sync";
    case WarpOp::ballot:
      return "__ballot_sync";
    case WarpOp::all:
      return "__all_sync";
    case WarpOp::any:
      return "__any_sync";
    case WarpOp::reduce_add:
      return "__reduce_add_sync";
    case WarpOp::reduce_min:
      return "__reduce_min_sync";
    case WarpOp::reduce_max:
      return "__reduce_max_sync";
  }
  return "?";
}

std::atomic<bool> early_running{false};
std::atomic<unsigned> early_barriers{0};
std::atomic<std::uint64_t> remote_maps{0};

int block_barrier(BarrierOp op, int predicate, const std::source_location& loc) {
  if (early_running.load(std::memory_order_relaxed) && blockIdx.x == 0 && blockIdx.y == 0 &&
      blockIdx.z == 0 && threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    early_barriers.fetch_add(1, std::memory_order_relaxed);
  return runner_for("__syncthreads").barrier(op, predicate, loc);
}

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, std::int64_t arg,
                              int width, const std::source_location& loc) {
  return runner_for(warp_op_name(op)).warp(op, mask, value, arg, width, loc);
}

unsigned active_mask() { return runner_for("__activemask").active_mask(); }

ClusterShape cluster_shape() {
  return runner_for("cooperative_groups::this_cluster()").cluster_shape();
}

void cluster_barrier(const std::source_location& loc) {
  runner_for("cluster.sync()").cluster_barrier(loc);
}

void cluster_arrive(const std::source_location& loc) {
  runner_for("cluster barrier_arrive()").cluster_arrive(loc);
}

void cluster_wait(const std::source_location& loc) {
  runner_for("cluster barrier_wait()").cluster_wait(loc);
}

void* map_shared_rank(const void* addr, int rank, bool record, const std::source_location& loc) {
  return runner_for("map_shared_rank").map_shared_rank(addr, rank, record, loc);
}

unsigned query_shared_rank(const void* addr, const std::source_location& loc) {
  return runner_for("query_shared_rank").query_shared_rank(addr, loc);
}

void grid_dependency_sync(const std::source_location& loc) {
  runner_for("cudaGridDependencySynchronize").grid_dependency_sync(loc);
}

// A cuda::barrier may be constructed and initialised outside a kernel (host code): then it is a
// plain object, and the runner-less calls do what the host side of libcu++ does.
void mbarrier_init(MBarrier* bar, std::int64_t expected, const std::source_location& loc) {
  if (BlockRunner* r = BlockRunner::current())
    r->mbarrier_init(bar, expected, loc);
  else
    *bar = MBarrier{0, expected, expected, 0, 0};
}

std::uint64_t mbarrier_arrive(MBarrier* bar, std::int64_t update, bool drop,
                              const std::source_location& loc) {
  return runner_for("cuda::barrier::arrive").mbarrier_arrive(bar, update, drop, loc);
}

void mbarrier_wait(MBarrier* bar, std::uint64_t token, const std::source_location& loc) {
  runner_for("cuda::barrier::wait").mbarrier_wait(bar, token, loc);
}

void bulk_copy(void* dst, const void* src, std::size_t bytes, std::size_t align, MBarrier* bar,
               const std::source_location& loc) {
  runner_for("cuda::memcpy_async").bulk_copy(dst, src, bytes, align, bar, loc);
}

bool report_access(const void* address, std::size_t bytes, AccessKind kind, MemorySpace space,
                   const void* base, std::size_t element_bytes, const std::source_location& loc,
                   void* stale) {
  if (BlockRunner* r = BlockRunner::current())
    return r->check_access(address, bytes, kind, space, base, element_bytes, loc, stale);
  return false;
}

void atomic_begin(const void* address) { memory_model().stripe_of(address).lock(); }

void atomic_end(const void* address, const char* name, bool wrote,
                const std::source_location& loc) {
  if (BlockRunner* r = BlockRunner::current()) r->note_atomic(address, name, wrote, loc);
  memory_model().stripe_of(address).unlock();
}

void memory_fence(const std::source_location& loc) {
  if (BlockRunner* r = BlockRunner::current()) r->memory_fence(loc);
}

namespace {
std::atomic<std::uint64_t> fence_count{0};
std::atomic<unsigned> lowest_fence_line{0};
}  // namespace

void count_fence(const std::source_location& loc) {
  fence_count.fetch_add(1, std::memory_order_relaxed);
  // The lowest line, not the first: blocks run on several host threads, and the lowest does not
  // depend on which of them got there first.
  const unsigned line = loc.line();
  unsigned seen = lowest_fence_line.load(std::memory_order_relaxed);
  while ((seen == 0 || line < seen) &&
         !lowest_fence_line.compare_exchange_weak(seen, line, std::memory_order_relaxed)) {
  }
}

namespace {
// Written only by the host thread that runs thread 0 of block 0, read once no launch runs.
std::atomic<std::uint64_t> loads_before_add{0};
std::atomic<bool> first_add_seen{false};

bool is_first_thread() {
  return blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0 &&
         threadIdx.y == 0 && threadIdx.z == 0;
}
}  // namespace

void note_traced_load() {
  if (is_first_thread() && !first_add_seen.load(std::memory_order_relaxed))
    loads_before_add.fetch_add(1, std::memory_order_relaxed);
}

void note_traced_add() {
  if (is_first_thread()) first_add_seen.store(true, std::memory_order_relaxed);
}

}  // namespace detail

FencesCalled fences_called() {
  return {detail::fence_count.load(std::memory_order_relaxed),
          detail::lowest_fence_line.load(std::memory_order_relaxed)};
}

void reset_fences_called() {
  detail::fence_count.store(0, std::memory_order_relaxed);
  detail::lowest_fence_line.store(0, std::memory_order_relaxed);
}

LoadsBeforeAdd loads_before_first_add() {
  return {detail::loads_before_add.load(std::memory_order_relaxed),
          detail::first_add_seen.load(std::memory_order_relaxed)};
}

void reset_loads_before_first_add() {
  detail::loads_before_add.store(0, std::memory_order_relaxed);
  detail::first_add_seen.store(false, std::memory_order_relaxed);
}

std::uint64_t remote_shared_maps() { return detail::remote_maps.load(std::memory_order_relaxed); }

void reset_remote_shared_maps() { detail::remote_maps.store(0, std::memory_order_relaxed); }

}  // namespace rl::sim
