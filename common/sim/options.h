// Process-wide scheduling options of the simulator.
#pragma once

namespace rl::sim {

// Order in which the runnable CUDA threads of a block are resumed, each running alone
// until its next synchronisation point (barrier, warp collective or exit).
enum class Schedule {
  lane_order,     // increasing linear thread id
  reverse_lanes,  // decreasing linear thread id
  shuffled,       // seeded random order, deterministic per (seed, block)
};

struct Options {
  Schedule schedule = Schedule::lane_order;
  unsigned seed = 1;
  unsigned host_threads = 0;  // 0 = std::thread::hardware_concurrency() (at least 1)
  // Race checking: every access through a checked view (racecheck.h) is checked against the
  // block's synchronisation, and the first race ends the launch with a KernelError (README.md).
  bool racecheck = false;
  // Late visibility: a write through a checked global view becomes visible to other blocks only
  // through what CUDA's memory model guarantees (a release in the writer, an acquire in the reader,
  // linked by an atomic; a kernel boundary; cudaGridDependencySynchronize; a cluster barrier).
  // Until then another block's read sees the value from before the write, as the memory model
  // allows: a single pass without its fences gives a wrong total (README.md).
  bool late_visibility = false;
  // Progress of long runs: while launches run, a line on stderr each time this many seconds have
  // passed since the last such line (or since progress was first asked for) -- how long the
  // process has simulated, and where the running launch is. 0: no lines.
  double progress_every_s = 0;
};

void set_options(const Options& o);
Options options();

}  // namespace rl::sim
