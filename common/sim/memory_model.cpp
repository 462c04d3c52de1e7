#include "common/sim/memory_model.h"

#include <algorithm>
#include <functional>

namespace rl::sim::detail {
namespace {

std::size_t stripe_index(const void* address) {
  // elements 8 bytes apart in different stripes, neighbouring blocks' partials too
  return (reinterpret_cast<std::uintptr_t>(address) >> 3) % MemoryModel::stripes;
}

}  // namespace

MemoryModel& memory_model() {
  static MemoryModel model;
  return model;
}

void MemoryModel::begin_grid() {
  for (auto& m : cells_) m.clear();
  for (auto& m : atomics_) m.clear();
  {
    std::lock_guard lock(releases_lock_);
    releases_.clear();
  }
  running_ = new_grid_serial();
  primary_ = dependent_ = 0;
}

void MemoryModel::begin_overlap() {
  begin_grid();
  overlap_ = true;
}

std::uint64_t MemoryModel::new_grid_serial() { return ++serial_; }

std::optional<bool> MemoryModel::grids_ordered(std::uint64_t earlier, std::uint64_t later,
                                               bool synced) const {
  if (earlier == later) return std::nullopt;
  if (later == dependent_ && earlier == primary_) return synced;
  if (earlier == dependent_ && later == primary_) return false;
  return true;  // a kernel boundary
}

std::mutex& MemoryModel::stripe_of(const void* address) { return locks_[stripe_index(address)]; }

GlobalCell& MemoryModel::cell(const void* address) {
  return cells_[stripe_index(address)][reinterpret_cast<std::uintptr_t>(address)];
}

AtomicLocation& MemoryModel::atomic_location(const void* address) {
  auto& slot = atomics_[stripe_index(address)][reinterpret_cast<std::uintptr_t>(address)];
  if (!slot) slot = std::make_unique<AtomicLocation>();
  return *slot;
}

void MemoryModel::publish(std::uint64_t grid, std::uint64_t block, const Release& r) {
  std::lock_guard lock(releases_lock_);
  releases_[{grid, block}].push_back(r);
}

bool MemoryModel::released(std::uint32_t known, const GlobalAccess& a) {
  if (known == 0) return false;
  std::lock_guard lock(releases_lock_);
  const auto it = releases_.find({a.grid, a.block});
  if (it == releases_.end()) return false;
  const std::size_t n = std::min<std::size_t>(known, it->second.size());
  for (std::size_t k = n; k-- > 0;)  // the newest covers the most
    if (covers(it->second[k], a)) return true;
  return false;
}

std::optional<std::source_location> MemoryModel::release_covering(const GlobalAccess& a) {
  std::lock_guard lock(releases_lock_);
  const auto it = releases_.find({a.grid, a.block});
  if (it == releases_.end()) return std::nullopt;
  for (const Release& r : it->second)
    if (covers(r, a)) return r.loc;
  return std::nullopt;
}

void MemoryModel::name(const void* base, std::size_t bytes, std::string name) {
  std::lock_guard lock(names_lock_);
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  std::erase_if(names_, [&](const auto& n) {
    return n.first.first < b + bytes && b < n.first.first + n.first.second;
  });
  if (bytes > 0 && !name.empty()) names_.push_back({{b, bytes}, std::move(name)});
}

std::optional<std::string> MemoryModel::name_of(const void* address, std::size_t element_bytes) {
  std::lock_guard lock(names_lock_);
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  for (const auto& [range, name] : names_)
    if (a >= range.first && a < range.first + range.second)
      return name + "[" +
             std::to_string((a - range.first) / std::max<std::size_t>(element_bytes, 1)) + "]";
  return std::nullopt;
}

}  // namespace rl::sim::detail
