// libcu++'s block-scope barrier and bulk asynchronous copy on the simulator (what <cuda/barrier>
// declares, for the forms ReduceLab uses; names and signatures as in CUDA 13's libcu++):
//
//   __shared__ cuda::barrier<cuda::thread_scope_block> bar;
//   if (threadIdx.x == 0) init(&bar, blockDim.x);
//   __syncthreads();
//   if (threadIdx.x == 0)
//     cuda::memcpy_async(smem, gmem, cuda::aligned_size_t<16>(bytes), bar);
//   bar.arrive_and_wait();  // or: auto t = bar.arrive(); ...; bar.wait(std::move(t));
//
// On sm_90 libcu++ turns that memcpy_async into one cp.async.bulk whose bytes complete the
// barrier's phase (an mbarrier transaction count). The simulator models exactly that: the copy's
// destination is poisoned (0xFF) when the copy is issued and written when the barrier's current
// phase completes (every expected arrival made); wait() on that phase returns only after. A read
// of the destination before then reads poison, and with race checking it is reported. Misuse is
// reported with the line: a size or an address not a multiple of 16 with aligned_size_t<16>, a
// destination outside the block's shared memory, a barrier used before init() in this block, more
// arrivals than expected, a wait that no arrival will ever complete.
#pragma once
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <type_traits>

#include "common/sim/runtime.h"
#include "common/sim/thread_scope.h"

namespace cuda {

// A size in bytes that the caller promises is a multiple of Alignment, as are both addresses.
template <std::size_t Alignment>
struct aligned_size_t {
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  explicit constexpr aligned_size_t(std::size_t size) : value(size) {}
  constexpr operator std::size_t() const { return value; }  // NOLINT: implicit, as libcu++'s
};

// What memcpy_async returns: `async` when a barrier must be waited on for the bytes.
enum class async_contract_fulfillment { none, async };

namespace sim_detail {
struct empty_completion {
  void operator()() noexcept {}
};
template <class Size>
constexpr std::size_t alignment_of_size() {
  if constexpr (requires { Size::align; })
    return Size::align;
  else
    return 1;
}
}  // namespace sim_detail

// A barrier of `expected` arrivals per phase (an mbarrier). The simulator models the block scope
// (the barrier in the block's shared memory); completion functions other than the empty one are
// not supported.
template <thread_scope Scope, class CompletionF = sim_detail::empty_completion>
class barrier {
  static_assert(std::is_same_v<CompletionF, sim_detail::empty_completion>,
                "the simulator's cuda::barrier has no completion function");

 public:
  class arrival_token {
   public:
    arrival_token() = default;

   private:
    friend class barrier;
    explicit arrival_token(std::uint64_t phase) : phase_(phase) {}
    std::uint64_t phase_ = 0;
  };

  barrier() = default;
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;
  explicit barrier(std::ptrdiff_t expected, CompletionF = CompletionF(),
                   std::source_location loc = std::source_location::current()) {
    rl::sim::detail::mbarrier_init(&state_, expected, loc);
  }

  friend void init(barrier* b, std::ptrdiff_t expected, CompletionF = CompletionF(),
                   std::source_location loc = std::source_location::current()) {
    rl::sim::detail::mbarrier_init(&b->state_, expected, loc);
  }

  [[nodiscard]] arrival_token arrive(std::ptrdiff_t update = 1,
                                     std::source_location loc = std::source_location::current()) {
    return arrival_token(rl::sim::detail::mbarrier_arrive(&state_, update, false, loc));
  }
  void wait(arrival_token&& token,
            std::source_location loc = std::source_location::current()) const {
    rl::sim::detail::mbarrier_wait(&state_, token.phase_, loc);
  }
  void arrive_and_wait(std::source_location loc = std::source_location::current()) {
    wait(arrive(1, loc), loc);
  }
  void arrive_and_drop(std::source_location loc = std::source_location::current()) {
    (void)rl::sim::detail::mbarrier_arrive(&state_, 1, true, loc);
  }
  static constexpr std::ptrdiff_t max() noexcept { return (std::ptrdiff_t{1} << 20) - 1; }

  // The simulator's state of the barrier (for memcpy_async).
  rl::sim::detail::MBarrier* sim_state() { return &state_; }

 private:
  mutable rl::sim::detail::MBarrier state_;
};

// Copies `size` bytes from global memory at `source` into shared memory at `destination`; the
// bytes land when the barrier's current phase completes.
template <class Size, thread_scope Scope, class CompletionF>
async_contract_fulfillment memcpy_async(
    void* destination, const void* source, Size size, barrier<Scope, CompletionF>& bar,
    std::source_location loc = std::source_location::current()) {
  rl::sim::detail::bulk_copy(destination, source, static_cast<std::size_t>(size),
                             sim_detail::alignment_of_size<Size>(), bar.sim_state(), loc);
  return async_contract_fulfillment::async;
}
template <class T, class Size, thread_scope Scope, class CompletionF>
async_contract_fulfillment memcpy_async(
    T* destination, const T* source, Size size, barrier<Scope, CompletionF>& bar,
    std::source_location loc = std::source_location::current()) {
  static_assert(std::is_trivially_copyable_v<T>, "memcpy_async copies trivially copyable types");
  constexpr std::size_t size_align = sim_detail::alignment_of_size<Size>();
  rl::sim::detail::bulk_copy(destination, source, static_cast<std::size_t>(size),
                             size_align > alignof(T) ? size_align : alignof(T), bar.sim_state(),
                             loc);
  return async_contract_fulfillment::async;
}
// The collective form: every thread of `group` calls it with the same arguments; one copy is made
// (by the group's thread of rank 0, as libcu++ issues it).
template <class Group, class T, class Size, thread_scope Scope, class CompletionF>
requires requires(const Group& g) { g.thread_rank(); }
async_contract_fulfillment memcpy_async(
    const Group& group, T* destination, const T* source, Size size,
    barrier<Scope, CompletionF>& bar, std::source_location loc = std::source_location::current()) {
  if (group.thread_rank() == 0) memcpy_async(destination, source, size, bar, loc);
  return async_contract_fulfillment::async;
}

}  // namespace cuda
