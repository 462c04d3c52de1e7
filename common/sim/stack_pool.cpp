#include "common/sim/stack_pool.h"

#ifdef __EMSCRIPTEN__
#include <cstdlib>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <mutex>
#include <new>

namespace rl::sim::detail {
namespace {

#ifdef __EMSCRIPTEN__
StackContext map_stack(std::size_t bytes) {
  void* base = std::aligned_alloc(16, bytes);
  if (base == nullptr) throw std::bad_alloc();
  StackContext sc;
  sc.size = bytes;
  sc.sp = static_cast<char*>(base) + bytes;
  return sc;
}

void unmap_stack(const StackContext& sc) noexcept {
  std::free(static_cast<char*>(sc.sp) - sc.size);
}
#else
std::size_t page_bytes() {
  static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

StackContext map_stack(std::size_t bytes) {
  const std::size_t guard = page_bytes();
  const std::size_t total = bytes + guard;
  void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  if (::mprotect(base, guard, PROT_NONE) != 0) {
    ::munmap(base, total);
    throw std::bad_alloc();
  }
  StackContext sc;
  sc.size = bytes;
  sc.sp = static_cast<char*>(base) + total;  // stacks grow down
  return sc;
}

void unmap_stack(const StackContext& sc) noexcept {
  const std::size_t guard = page_bytes();
  ::munmap(static_cast<char*>(sc.sp) - sc.size - guard, sc.size + guard);
}
#endif

// Stacks not owned by any StackPool right now; unmapped at process exit.
class Reservoir {
 public:
  ~Reservoir() {
    for (const auto& sc : stacks_) unmap_stack(sc);
  }
  void put(std::vector<StackContext>& from) {
    std::lock_guard lock(mutex_);
    stacks_.insert(stacks_.end(), from.begin(), from.end());
    from.clear();
  }
  void get(std::vector<StackContext>& into, std::size_t n) {
    std::lock_guard lock(mutex_);
    while (n-- > 0 && !stacks_.empty()) {
      into.push_back(stacks_.back());
      stacks_.pop_back();
    }
  }

 private:
  std::mutex mutex_;
  std::vector<StackContext> stacks_;
};

Reservoir& reservoir() {
  static Reservoir r;
  return r;
}

}  // namespace

StackPool::~StackPool() {
  if (bytes_ == fiber_stack_bytes) {
    reservoir().put(free_);
  } else {
    for (const auto& sc : free_) unmap_stack(sc);
  }
}

StackContext StackPool::take() {
  if (free_.empty() && bytes_ == fiber_stack_bytes) reservoir().get(free_, 256);
  if (free_.empty()) return map_stack(bytes_);
  StackContext sc = free_.back();
  free_.pop_back();
  return sc;
}

void StackPool::give(const StackContext& sc) noexcept {
  try {
    free_.push_back(sc);
  } catch (...) {
    unmap_stack(sc);
  }
}

}  // namespace rl::sim::detail
