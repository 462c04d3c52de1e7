// Reusable fiber stacks. Every CUDA thread is a fiber (fiber.h); its stack comes
// from a per-host-thread StackPool, which refills from (and on destruction returns to)
// one process-wide reservoir, so launching a million threads maps only as many stacks
// as there are CUDA threads alive at once (block size x host threads).
#pragma once
#ifndef __EMSCRIPTEN__
#include <boost/context/stack_context.hpp>
#endif

#include <cstddef>
#include <vector>

namespace rl::sim::detail {

#ifdef __EMSCRIPTEN__
// A stack for emscripten's fibers: `size` bytes below `sp`.
struct StackContext {
  std::size_t size = 0;
  void* sp = nullptr;
};
#else
using StackContext = boost::context::stack_context;
#endif

// Usable bytes of one fiber stack; natively a PROT_NONE guard page below it turns an overflow
// into a crash instead of silent corruption (WebAssembly has no such page).
inline constexpr std::size_t fiber_stack_bytes = 64 * 1024;

class StackPool {
 public:
  // Stacks of `bytes` each; only those of the default size are shared through the reservoir.
  explicit StackPool(std::size_t bytes = fiber_stack_bytes) : bytes_(bytes) {}
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  StackContext take();
  void give(const StackContext& sc) noexcept;

 private:
  std::size_t bytes_;
  std::vector<StackContext> free_;
};

#ifndef __EMSCRIPTEN__
// StackAllocator for boost::context::fiber, backed by a StackPool.
class PooledStack {
 public:
  explicit PooledStack(StackPool& pool) noexcept : pool_(&pool) {}
  StackContext allocate() { return pool_->take(); }
  void deallocate(StackContext& sc) noexcept { pool_->give(sc); }

 private:
  StackPool* pool_;
};
#endif

}  // namespace rl::sim::detail
