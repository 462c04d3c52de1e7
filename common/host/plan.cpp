#include "common/host/reducer.h"

#include <algorithm>
#include <mutex>
#include <tuple>

namespace rl {
namespace {
// Function-local, so registration from other translation units' static initialisers is safe.
std::vector<Reducer>& registry() {
  static std::vector<Reducer> all;
  return all;
}
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

std::string_view to_string(Backend b) { return b == Backend::gpu ? "gpu" : "sim"; }

bool register_reducer(const Reducer& r) {
  std::lock_guard lock(registry_mutex());
  registry().push_back(r);
  return true;
}

std::vector<Reducer> registered_reducers() {
  std::lock_guard lock(registry_mutex());
  auto all = registry();
  std::stable_sort(all.begin(), all.end(), [](const Reducer& a, const Reducer& b) {
    return std::tuple(a.lesson, a.variant, a.backend) < std::tuple(b.lesson, b.variant, b.backend);
  });
  return all;
}

const Reducer* find_reducer(int lesson, Backend backend, std::string_view variant) {
  std::lock_guard lock(registry_mutex());
  for (const auto& r : registry())
    if (r.lesson == lesson && r.backend == backend && r.variant == variant) return &r;
  return nullptr;
}

unsigned block_for(const Reducer& r, unsigned requested, bool requested_explicitly) {
  return requested_explicitly || r.preferred_block == 0 ? requested : r.preferred_block;
}

}  // namespace rl
