// Reusable fiber stacks. Every CUDA thread is a boost::context fiber; its stack comes
// from a per-host-thread StackPool, which refills from (and on destruction returns to)
// one process-wide reservoir, so launching a million threads maps only as many stacks
// as there are CUDA threads alive at once (block size x host threads).
#pragma once
#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <vector>

namespace rl::sim::detail {

// Usable bytes of one fiber stack; a PROT_NONE guard page below it turns an overflow
// into a crash instead of silent corruption.
inline constexpr std::size_t fiber_stack_bytes = 64 * 1024;

class StackPool {
 public:
  StackPool() = default;
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  boost::context::stack_context take();
  void give(const boost::context::stack_context& sc) noexcept;

 private:
  std::vector<boost::context::stack_context> free_;
};

// StackAllocator for boost::context::fiber, backed by a StackPool.
class PooledStack {
 public:
  explicit PooledStack(StackPool& pool) noexcept : pool_(&pool) {}
  boost::context::stack_context allocate() { return pool_->take(); }
  void deallocate(boost::context::stack_context& sc) noexcept { pool_->give(sc); }

 private:
  StackPool* pool_;
};

}  // namespace rl::sim::detail
