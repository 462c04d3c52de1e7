#include "common/host/plan.h"

namespace rl {

std::string_view to_string(Backend b) { return b == Backend::gpu ? "gpu" : "sim"; }

std::string to_string(LaunchWay way) {
  return std::string(way.launch == LaunchPath::graph ? "graph" : "stream") +
         (way.programmatic ? "+PDL" : "");
}

unsigned block_for(const Plan& p, unsigned requested, bool requested_explicitly) {
  return requested_explicitly || p.preferred_block == 0 ? requested : p.preferred_block;
}

}  // namespace rl
