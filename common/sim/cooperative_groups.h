// CUDA's cooperative groups on the simulator (what <cooperative_groups.h> declares, for the groups
// ReduceLab uses): the thread block, its tiles of up to 32 threads, and the block's cluster with its
// distributed shared memory. Names and signatures are CUDA's (cooperative_groups.h of CUDA 13): the
// same kernel source compiles with nvcc and with g++. Every synchronisation is the simulator's own
// (__syncthreads, __syncwarp, the cluster barrier), so misuse is reported as for the built-ins.
#pragma once
#include <source_location>

#include "common/sim/builtins.h"
#include "common/sim/racecheck.h"
#include "common/sim/runtime.h"
#include "common/sim/sync.h"
#include "common/sim/warp.h"

namespace cooperative_groups {

namespace details {
inline unsigned linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
}  // namespace details

// The running thread block.
class thread_block {
 public:
  static void sync(std::source_location loc = std::source_location::current()) {
    __syncthreads(loc);
  }
  static unsigned thread_rank() { return details::linear_thread(); }
  static unsigned num_threads() { return details::block_threads(); }
  static unsigned size() { return num_threads(); }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 dim_threads() { return blockDim; }

 private:
  friend thread_block this_thread_block();
  thread_block() = default;
};

inline thread_block this_thread_block() { return thread_block(); }

// A tile of Size consecutive threads of the block (Size a power of two up to 32: a whole warp or
// an aligned part of one). Parent is the group it was cut from; thread_block_tile<Size> (Parent
// void) is the same tile with the parent type erased, as in CUDA.
template <unsigned Size, class Parent = void>
class thread_block_tile {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                "the simulator's tiles are of 1, 2, 4, 8, 16 or 32 threads");

 public:
  thread_block_tile() = default;
  template <class P>
  // NOLINT: implicit, as CUDA's conversion to the type-erased tile
  thread_block_tile(const thread_block_tile<Size, P>&) {}

  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  static unsigned thread_rank() { return details::linear_thread() % Size; }
  static unsigned meta_group_rank() { return details::linear_thread() / Size; }
  static unsigned meta_group_size() { return (details::block_threads() + Size - 1) / Size; }
  // The lanes of the calling thread's warp that form its tile.
  static unsigned lanes() {
    if constexpr (Size == 32) {
      return 0xffffffffu;
    } else {
      const unsigned lane = details::linear_thread() % 32;
      return ((1u << Size) - 1) << (lane / Size * Size);
    }
  }

  static void sync(std::source_location loc = std::source_location::current()) {
    __syncwarp(lanes(), loc);
  }
  template <class T>
  static T shfl(T var, int src_rank, std::source_location loc = std::source_location::current()) {
    return __shfl_sync(lanes(), var, src_rank, static_cast<int>(Size), loc);
  }
  template <class T>
  static T shfl_down(T var, unsigned delta,
                     std::source_location loc = std::source_location::current()) {
    return __shfl_down_sync(lanes(), var, delta, static_cast<int>(Size), loc);
  }
  template <class T>
  static T shfl_up(T var, unsigned delta,
                   std::source_location loc = std::source_location::current()) {
    return __shfl_up_sync(lanes(), var, delta, static_cast<int>(Size), loc);
  }
  template <class T>
  static T shfl_xor(T var, unsigned lane_mask,
                    std::source_location loc = std::source_location::current()) {
    return __shfl_xor_sync(lanes(), var, static_cast<int>(lane_mask), static_cast<int>(Size), loc);
  }
  static int any(int predicate, std::source_location loc = std::source_location::current()) {
    return __any_sync(lanes(), predicate, loc);
  }
  static int all(int predicate, std::source_location loc = std::source_location::current()) {
    return __all_sync(lanes(), predicate, loc);
  }
  // Bit i: the predicate of the tile's thread of rank i.
  static unsigned ballot(int predicate,
                         std::source_location loc = std::source_location::current()) {
    const unsigned shift = details::linear_thread() % 32 / Size * Size;
    return (__ballot_sync(lanes(), predicate, loc) & lanes()) >> shift;
  }
};

template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent&) {
  return thread_block_tile<Size, Parent>();
}

// The running block's cluster (a launch without clusters is a cluster of one block, as in CUDA).
class cluster_group {
 public:
  // Waits until every thread of every block of the cluster has arrived; it orders the blocks'
  // shared-memory accesses (distributed shared memory) before it with those after it.
  static void sync(std::source_location loc = std::source_location::current()) {
    rl::sim::detail::cluster_barrier(loc);
  }
  // The cluster barrier in two halves: barrier_arrive() arrives and goes on; barrier_wait() waits
  // until every thread of the cluster has arrived. A thread must wait before it arrives again.
  struct arrival_token {};
  static arrival_token barrier_arrive(std::source_location loc = std::source_location::current()) {
    rl::sim::detail::cluster_arrive(loc);
    return arrival_token{};
  }
  static void barrier_wait(std::source_location loc = std::source_location::current()) {
    rl::sim::detail::cluster_wait(loc);
  }
  static void barrier_wait(arrival_token&&,
                           std::source_location loc = std::source_location::current()) {
    rl::sim::detail::cluster_wait(loc);
  }
  static unsigned block_rank() { return rl::sim::detail::cluster_shape().rank; }
  static unsigned num_blocks() { return rl::sim::detail::cluster_shape().blocks; }
  static unsigned size() { return num_threads(); }
  // Clusters are 1-D (cluster_x blocks along x): see rl::LaunchAttributes.
  static dim3 dim_blocks() { return dim3(num_blocks(), 1, 1); }
  static dim3 block_index() { return dim3(block_rank(), 0, 0); }
  static unsigned thread_rank() {
    return block_rank() * details::block_threads() + details::linear_thread();
  }
  static unsigned num_threads() { return num_blocks() * details::block_threads(); }
  static dim3 dim_threads() { return dim3(num_blocks() * blockDim.x, blockDim.y, blockDim.z); }
  static dim3 thread_index() {
    return dim3(block_rank() * blockDim.x + threadIdx.x, threadIdx.y, threadIdx.z);
  }

  // The address in block `rank`'s shared memory of what `addr` is in the calling block's. A rank
  // outside the cluster, an address outside the caller's shared memory, or a block that has
  // exited are reported; so is a block that exits while another may still access its memory (no
  // cluster.sync() between the access and the exit).
  template <class T>
  static T* map_shared_rank(T* addr, int rank,
                            std::source_location loc = std::source_location::current()) {
    return static_cast<T*>(rl::sim::detail::map_shared_rank(addr, rank, true, loc));
  }
  // The simulator's checked views (what a lesson's Shared<Trace> is under g++) map to checked
  // views of the other block's memory, so the race detector sees those accesses too.
  template <class T, bool Volatile>
  static rl::sim::CheckedView<T, rl::sim::MemorySpace::shared, Volatile> map_shared_rank(
      const rl::sim::CheckedView<T, rl::sim::MemorySpace::shared, Volatile>& view, int rank,
      std::source_location loc = std::source_location::current()) {
    using View = rl::sim::CheckedView<T, rl::sim::MemorySpace::shared, Volatile>;
    auto* p = static_cast<typename View::Pointer>(
        rl::sim::detail::map_shared_rank(const_cast<const T*>(view.get()), rank, true, loc));
    const auto* base =
        static_cast<const T*>(rl::sim::detail::map_shared_rank(view.base(), rank, false, loc));
    return View(p, base);
  }
  static unsigned query_shared_rank(const void* addr,
                                    std::source_location loc = std::source_location::current()) {
    return rl::sim::detail::query_shared_rank(addr, loc);
  }

 private:
  friend cluster_group this_cluster();
  cluster_group() = default;
};

inline cluster_group this_cluster() { return cluster_group(); }

}  // namespace cooperative_groups
