#include "common/sim/fiber.h"

#include <exception>
#include <memory>
#include <utility>
#include <vector>

namespace rl::sim::detail {

#ifndef __EMSCRIPTEN__

Fiber::Fiber(Fiber&& other) noexcept : fiber_(std::move(other.fiber_)) {}

void Fiber::start(StackPool& stacks, Body body, void* arg) {
  fiber_ = boost::context::fiber(std::allocator_arg, PooledStack(stacks),
                                 [this, body, arg](boost::context::fiber&& caller) {
                                   caller_ = std::move(caller);
                                   body(arg);
                                   return std::move(caller_);
                                 });
}

void Fiber::resume() { fiber_ = std::move(fiber_).resume(); }

void Fiber::suspend() { caller_ = std::move(caller_).resume(); }

void Fiber::suspend_to(Fiber&) { std::terminate(); }  // switches_directly is false natively

// Destroying a suspended boost fiber throws forced_unwind into it and recycles its stack.
void Fiber::unwind() noexcept { boost::context::fiber doomed = std::move(fiber_); }

Fiber::operator bool() const noexcept { return static_cast<bool>(fiber_); }

#else

namespace {

// The context a resume() leaves while its fiber runs, and what Asyncify saves of its stack: one
// per depth of nested resumes (the page's run fiber resumes the CUDA threads' fibers), reused by
// every resume at that depth, since only one of them is in flight at a time. Every fiber a
// suspend_to() chain runs goes back to the same one.
constexpr std::size_t caller_save_bytes = 256 * 1024;
struct Caller {
  emscripten_fiber_t context{};
  std::unique_ptr<char[]> save = std::make_unique<char[]>(caller_save_bytes);
};
std::vector<std::unique_ptr<Caller>> callers;
std::size_t resume_depth = 0;
// A fiber whose body returned, set just before it leaves its stack for good; the resume() it
// goes back to gives the stack back to the pool (it may be another fiber than the one resumed).
Fiber* ended = nullptr;

}  // namespace

Fiber::Fiber(Fiber&& other) noexcept
    : stack_(other.stack_), pool_(other.pool_), body_(other.body_), arg_(other.arg_) {
  if (other.alive_) std::terminate();  // a running body holds a pointer to `other`
}

void Fiber::entry(void* self) {
  auto* f = static_cast<Fiber*>(self);
  try {
    f->body_(f->arg_);
  } catch (const FiberUnwind&) {
  }
  f->alive_ = false;
  ended = f;
  emscripten_fiber_swap(&f->self_, f->caller_);  // never resumed again
}

void Fiber::start(StackPool& stacks, Body body, void* arg) {
  unwind();
  pool_ = &stacks;
  stack_ = stacks.take();
  body_ = body;
  arg_ = arg;
  // The block holds Asyncify's saved frames (the lower quarter) and the C stack above them.
  char* top = static_cast<char*>(stack_.sp);
  char* bottom = top - stack_.size;
  const std::size_t save = stack_.size / 4;
  emscripten_fiber_init(&self_, &Fiber::entry, this, bottom + save, stack_.size - save, bottom,
                        save);
  alive_ = true;
  unwinding_ = false;
}

void Fiber::resume() {
  if (callers.size() <= resume_depth) callers.push_back(std::make_unique<Caller>());
  Caller& c = *callers[resume_depth];
  emscripten_fiber_init_from_current_context(&c.context, c.save.get(), caller_save_bytes);
  caller_ = &c.context;
  ++resume_depth;
  emscripten_fiber_swap(&c.context, &self_);
  --resume_depth;
  if (ended != nullptr) {
    ended->pool_->give(ended->stack_);
    ended->stack_ = {};
    ended = nullptr;
  }
}

void Fiber::suspend() {
  emscripten_fiber_swap(&self_, caller_);
  if (unwinding_) throw FiberUnwind{};
}

void Fiber::suspend_to(Fiber& next) {
  next.caller_ = caller_;
  emscripten_fiber_swap(&self_, &next.self_);
  if (unwinding_) throw FiberUnwind{};
}

void Fiber::unwind() noexcept {
  if (!alive_) return;
  if (self_.entry != nullptr) {  // never resumed: nothing on its stack to unwind
    alive_ = false;
    pool_->give(stack_);
    stack_ = {};
    return;
  }
  unwinding_ = true;
  resume();
}

Fiber::operator bool() const noexcept { return alive_; }

#endif

}  // namespace rl::sim::detail
