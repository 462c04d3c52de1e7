#include "common/sim/options.h"

#include <mutex>

namespace rl::sim {
namespace {
std::mutex options_mutex;
Options current_options;
}  // namespace

void set_options(const Options& o) {
    std::lock_guard lock(options_mutex);
    current_options = o;
}

Options options() {
    std::lock_guard lock(options_mutex);
    return current_options;
}

}  // namespace rl::sim
