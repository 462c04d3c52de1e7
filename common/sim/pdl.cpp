// launch_ex's grids and programmatic dependent launch. A launch_ex grid waits (it is "pending")
// until the next launch or synchronize(), as a GPU runs a stream's work after the launch call has
// returned. When the next launch asks for programmatic_dependency, the two grids overlap in the
// earliest order CUDA allows: the dependent grid's first cluster (or block) runs up to its
// cudaGridDependencySynchronize() before the pending grid runs at all, then that grid runs to its
// end, then the dependent grid runs on. A dependent grid that reads the other's output before the
// call therefore reads what was there before (poison, where the buffer was poisoned), the same on
// every run.
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/sim/block_runner.h"
#include "common/sim/cluster.h"
#include "common/sim/fault_gate.h"
#include "common/sim/grid_launcher.h"
#include "common/sim/kernel_launch.h"
#include "common/sim/memory_model.h"

namespace rl::sim {
namespace detail {
namespace {

struct Pending {
  LaunchConfig config;
  std::shared_ptr<const void> bound;  // the kernel's arguments, which config.call points at
};

std::mutex pending_mutex;
std::optional<Pending> pending;

std::mutex early_mutex;
EarlyRun early_run;  // the last overlap's early cluster (last_early_run)

std::optional<Pending> take_pending() {
  std::lock_guard lock(pending_mutex);
  std::optional<Pending> p = std::move(pending);
  pending.reset();
  return p;
}

// `dependent` (launched with programmatic_dependency) overlapping `primary`, launched before it.
// The race detector's view of the overlap (memory_model.h): the two grids' accesses are checked
// against each other; the dependent's are ordered after the primary's once its threads have passed
// cudaGridDependencySynchronize().
void overlap(const LaunchConfig& primary, const LaunchConfig& dependent) {
  MemoryModel& model = memory_model();
  const std::uint64_t p = model.new_grid_serial(), d = model.new_grid_serial();
  model.set_dependency(p, d);
  FaultGate gate;  // this thread's: a fault in the early cluster stops in its name
  gate.running.store(1);
  Cluster early(dependent, &gate);
  model.set_running(d);
  early_barriers.store(0, std::memory_order_relaxed);
  early_running.store(true, std::memory_order_relaxed);
  Cluster::Outcome outcome = early.run(uint3{0, 0, 0}, true);
  early_running.store(false, std::memory_order_relaxed);
  {
    std::lock_guard lock(early_mutex);
    early_run = EarlyRun{true, outcome == Cluster::Outcome::suspended,
                         early_barriers.load(std::memory_order_relaxed)};
  }
  if (std::exception_ptr e = early.error()) std::rethrow_exception(e);
  model.set_running(p);
  if (outcome == Cluster::Outcome::suspended) {
    try {
      run_grid(primary);
    } catch (...) {
      early.abandon();
      throw;
    }
    model.set_running(d);
    early.resume();
    if (std::exception_ptr e = early.error()) std::rethrow_exception(e);
  } else {
    run_grid(primary);  // the early blocks never asked for it
  }
  model.set_running(d);
  run_grid(dependent, 1);
}

void run_overlapping(const LaunchConfig& primary, const LaunchConfig& dependent) {
  memory_model().begin_overlap();
  try {
    overlap(primary, dependent);
  } catch (...) {
    memory_model().end_overlap();
    throw;
  }
  memory_model().end_overlap();
}

}  // namespace

void launch_deferred(const LaunchConfig& config, std::shared_ptr<const void> bound) {
  validate_launch(config.kernel_name, config.grid, config.block, config.dynamic_smem_bytes,
                  config.cluster_x);
  if (BlockRunner::current() != nullptr)
    throw std::invalid_argument("sim: launch of kernel '" + std::string(config.kernel_name) +
                                "' from inside a kernel is not supported");
  std::optional<Pending> before = take_pending();
  if (before && config.programmatic_dependency) {
    run_overlapping(before->config, config);
    return;
  }
  if (before) run_grid(before->config);
  std::lock_guard lock(pending_mutex);
  pending = Pending{config, std::move(bound)};
}

}  // namespace detail

EarlyRun last_early_run() {
  std::lock_guard lock(detail::early_mutex);
  return detail::early_run;
}

void synchronize() {
  if (std::optional<detail::Pending> p = detail::take_pending()) detail::run_grid(p->config);
}

}  // namespace rl::sim
