// Runs all blocks of a grid on a pool of host threads (each runs one block at a time,
// all of that block's fibers on it) and rethrows the first failure on the caller. Where
// Options::progress_every_s asks, says on stderr how far a long run is, between blocks.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/sim/launch_config.h"

namespace rl::sim::detail {

// Throws std::invalid_argument (one line) for an impossible launch configuration.
void validate_launch(const char* kernel_name, dim3 grid, dim3 block, std::size_t dynamic_smem_bytes,
                     unsigned cluster_x = 1);

// Validates, then runs the grid; rethrows the failing block's KernelError. If several
// blocks fail, the one with the lowest linear block index among those seen wins. A grid of
// clusters (config.cluster_x > 1) runs cluster by cluster, each cluster's blocks together
// (cluster.h). `first_unit`: the blocks (or clusters) before it have run already.
void run_grid(const LaunchConfig& config, std::uint64_t first_unit = 0);

}  // namespace rl::sim::detail
