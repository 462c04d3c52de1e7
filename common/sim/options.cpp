#include "common/sim/options.h"

#include <mutex>

#include "common/sim/racecheck.h"

namespace rl::sim {
namespace {
std::mutex options_mutex;
Options current_options;
}  // namespace

namespace detail {
bool racecheck_requested = false;
}  // namespace detail

void set_options(const Options& o) {
  std::lock_guard lock(options_mutex);
  current_options = o;
  detail::racecheck_requested = o.racecheck || o.late_visibility;
}

Options options() {
  std::lock_guard lock(options_mutex);
  return current_options;
}

}  // namespace rl::sim
