#include "common/sim/stack_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <new>

namespace rl::sim::detail {
namespace {

std::size_t page_bytes() {
  static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

boost::context::stack_context map_stack() {
  const std::size_t guard = page_bytes();
  const std::size_t total = fiber_stack_bytes + guard;
  void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  if (::mprotect(base, guard, PROT_NONE) != 0) {
    ::munmap(base, total);
    throw std::bad_alloc();
  }
  boost::context::stack_context sc;
  sc.size = fiber_stack_bytes;
  sc.sp = static_cast<char*>(base) + total;  // stacks grow down
  return sc;
}

void unmap_stack(const boost::context::stack_context& sc) noexcept {
  const std::size_t guard = page_bytes();
  ::munmap(static_cast<char*>(sc.sp) - sc.size - guard, sc.size + guard);
}

// Stacks not owned by any StackPool right now; unmapped at process exit.
class Reservoir {
 public:
  ~Reservoir() {
    for (const auto& sc : stacks_) unmap_stack(sc);
  }
  void put(std::vector<boost::context::stack_context>& from) {
    std::lock_guard lock(mutex_);
    stacks_.insert(stacks_.end(), from.begin(), from.end());
    from.clear();
  }
  void get(std::vector<boost::context::stack_context>& into, std::size_t n) {
    std::lock_guard lock(mutex_);
    while (n-- > 0 && !stacks_.empty()) {
      into.push_back(stacks_.back());
      stacks_.pop_back();
    }
  }

 private:
  std::mutex mutex_;
  std::vector<boost::context::stack_context> stacks_;
};

Reservoir& reservoir() {
  static Reservoir r;
  return r;
}

}  // namespace

StackPool::~StackPool() { reservoir().put(free_); }

boost::context::stack_context StackPool::take() {
  if (free_.empty()) reservoir().get(free_, 256);
  if (free_.empty()) return map_stack();
  boost::context::stack_context sc = free_.back();
  free_.pop_back();
  return sc;
}

void StackPool::give(const boost::context::stack_context& sc) noexcept {
  try {
    free_.push_back(sc);
  } catch (...) {
    unmap_stack(sc);
  }
}

}  // namespace rl::sim::detail
