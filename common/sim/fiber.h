// One CUDA thread's execution context, behind one small interface with two implementations:
// Boost.Context natively, emscripten's fibers (Asyncify) in the web build (fiber.cpp). A fiber runs
// `body(arg)` on a stack of its own from the first resume() until the body calls suspend(), which
// returns to the resume() that ran it; the next resume() goes on from there. A fiber that is still
// suspended when it is unwound (or destroyed) sees FiberUnwind thrown from its suspend(), so the
// destructors of its locals run; code that catches everything in a fiber must rethrow it.
#pragma once
#include <cstddef>

#ifdef __EMSCRIPTEN__
#include <emscripten/fiber.h>
#else
#include <boost/context/fiber.hpp>
#endif

#include "common/sim/stack_pool.h"

namespace rl::sim::detail {

#ifdef __EMSCRIPTEN__
struct FiberUnwind {};
#else
using FiberUnwind = boost::context::detail::forced_unwind;
#endif

class Fiber {
 public:
  using Body = void (*)(void* arg);

  Fiber() = default;
  ~Fiber() { unwind(); }
  // Only a fiber that was never started (or has ended) may be moved: a running body refers to it.
  Fiber(Fiber&& other) noexcept;
  Fiber& operator=(Fiber&&) = delete;
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Prepares `body(arg)` on a stack from `stacks`; it starts at the first resume().
  void start(StackPool& stacks, Body body, void* arg);
  // Runs the fiber until its body suspends or returns. Called from outside the fiber.
  void resume();
  // From inside the body: back to the resume() that ran it.
  void suspend();
  // From inside the body: straight on to `next` (not yet started, or suspended), without going
  // back to the resume() that ran this one; `next`'s suspend() goes back there. Only where
  // `switches_directly` is true.
  void suspend_to(Fiber& next);
  // In the web build a switch costs an unwind and a rewind of the wasm stack (Asyncify), so
  // switching from one CUDA thread straight to the next halves the switches of a round;
  // Boost.Context's switches cost a few nanoseconds, so natively every thread goes back to its
  // resumer.
#ifdef __EMSCRIPTEN__
  static constexpr bool switches_directly = true;
#else
  static constexpr bool switches_directly = false;
#endif
  // Ends a fiber that has not finished: its body is unwound from where it waits (destructors run)
  // and its stack goes back to the pool. Nothing happens for one that has finished.
  void unwind() noexcept;
  // Started and not finished.
  explicit operator bool() const noexcept;

 private:
#ifdef __EMSCRIPTEN__
  static void entry(void* self);
  emscripten_fiber_t self_{};
  emscripten_fiber_t* caller_ = nullptr;  // while the body runs: the resume() it goes back to
  StackContext stack_{};
  StackPool* pool_ = nullptr;
  Body body_ = nullptr;
  void* arg_ = nullptr;
  bool alive_ = false;      // started, not finished
  bool unwinding_ = false;  // the next return from suspend() throws FiberUnwind
#else
  boost::context::fiber fiber_;   // the fiber, while it is suspended
  boost::context::fiber caller_;  // while the body runs: where suspend() goes back to
#endif
};

}  // namespace rl::sim::detail
