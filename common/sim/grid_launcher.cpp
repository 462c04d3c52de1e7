#include "common/sim/grid_launcher.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "common/sim/block_runner.h"
#include "common/sim/cluster.h"
#include "common/sim/fault_gate.h"
#include "common/sim/memory_model.h"
#include "common/sim/run_hook.h"
#include "common/sim/stack_pool.h"

namespace rl::sim::detail {
namespace {

std::string dims(dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

constexpr std::size_t max_dynamic_smem = 228 * 1024;

struct GridState {
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::exception_ptr error;
  std::uint64_t error_block = std::numeric_limits<std::uint64_t>::max();

  void record(std::uint64_t block, std::exception_ptr e) {
    std::lock_guard lock(mutex);
    if (!error || block < error_block) {
      error = std::move(e);
      error_block = block;
    }
    stop.store(true);
  }
};

// Progress lines (Options::progress_every_s): when the first was asked for, and when the last line
// (or the first request) was; steady-clock nanoseconds, 0 for never.
std::atomic<std::int64_t> progress_since{0};
std::atomic<std::int64_t> progress_last{0};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Called by a host thread after each block: one line when it is time, by whichever thread gets
// there.
void maybe_say_progress(const LaunchConfig& config, std::uint64_t done, std::uint64_t blocks) {
  const auto every = static_cast<std::int64_t>(config.options.progress_every_s * 1e9);
  const std::int64_t now = now_ns();
  std::int64_t last = progress_last.load(std::memory_order_relaxed);
  if (last == 0) {  // the first launch since progress was asked for
    std::int64_t zero = 0;
    progress_since.compare_exchange_strong(zero, now);
    progress_last.compare_exchange_strong(last, now);
    return;
  }
  if (now - last < every || !progress_last.compare_exchange_strong(last, now)) return;
  const double so_far = static_cast<double>(now - progress_since.load()) / 1e9;
  char line[256];
  std::snprintf(line, sizeof line,
                "sim: still running after %.0f s: kernel '%s', block %llu of %llu (%.0f%%)\n",
                so_far, config.kernel_name ? config.kernel_name : "?",
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(blocks),
                100.0 * static_cast<double>(done) / static_cast<double>(blocks));
  std::fputs(line, stderr);
}

// its fault's report; it outlives the report (the thread waits)
thread_local char t_fault_line[512];

// A cluster's block index from its number: clusters tile the grid along x.
uint3 cluster_origin(const LaunchConfig& config, std::uint64_t cluster) {
  const std::uint64_t across = config.grid.x / config.cluster_x;
  const std::uint64_t rest = cluster / across;
  return uint3{static_cast<unsigned>(cluster % across * config.cluster_x),
               static_cast<unsigned>(rest % config.grid.y),
               static_cast<unsigned>(rest / config.grid.y)};
}

}  // namespace

void validate_launch(const char* kernel_name, dim3 grid, dim3 block, std::size_t dynamic_smem_bytes,
                     unsigned cluster_x) {
  const std::string prefix =
      "sim: launch of kernel '" + std::string(kernel_name ? kernel_name : "?") + "': ";
  if (block.x == 0 || block.y == 0 || block.z == 0)
    throw std::invalid_argument(prefix + "block dimensions must be non-zero, got " + dims(block));
  if (block.x > 1024 || block.y > 1024 || block.z > 64)
    throw std::invalid_argument(prefix + "block " + dims(block) +
                                " exceeds the limits (1024,1024,64)");
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (threads > 1024)
    throw std::invalid_argument(prefix + "block " + dims(block) + " has " +
                                std::to_string(threads) + " threads; the limit is 1024");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    throw std::invalid_argument(prefix + "grid dimensions must be non-zero, got " + dims(grid));
  if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    throw std::invalid_argument(prefix + "grid " + dims(grid) +
                                " exceeds the limits (2147483647,65535,65535)");
  if (dynamic_smem_bytes > max_dynamic_smem)
    throw std::invalid_argument(
        prefix + "dynamic shared memory of " + std::to_string(dynamic_smem_bytes) +
        " bytes exceeds the limit of " + std::to_string(max_dynamic_smem) + " bytes (228 KiB)");
  if (cluster_x < 1 || cluster_x > 16)
    throw std::invalid_argument(prefix + "a cluster of " + std::to_string(cluster_x) +
                                " blocks: the limit is 1 to 16 (over 8 is non-portable)");
  if (grid.x % cluster_x != 0)
    throw std::invalid_argument(prefix + "grid.x = " + std::to_string(grid.x) +
                                " is not a multiple of the cluster size " +
                                std::to_string(cluster_x) + " (CUDA requires whole clusters)");
}

void run_grid(const LaunchConfig& config, std::uint64_t first_unit) {
  validate_launch(config.kernel_name, config.grid, config.block, config.dynamic_smem_bytes,
                  config.cluster_x);
  if (BlockRunner::current() != nullptr)
    throw std::invalid_argument("sim: launch of kernel '" + std::string(config.kernel_name) +
                                "' from inside a kernel is not supported");

  // A kernel boundary: everything before this grid is ordered before it (one stream), unless it
  // is a phase of a programmatic dependent launch's overlap (pdl.cpp).
  if (!memory_model().in_overlap()) memory_model().begin_grid();
  const std::uint64_t gx = config.grid.x, gy = config.grid.y;
  const std::uint64_t blocks = gx * gy * config.grid.z;
  // What a host thread takes at a time: a block, or a whole cluster (its blocks run together).
  const unsigned k = config.cluster_x;
  const std::uint64_t units = blocks / k;
  if (first_unit >= units) return;
  unsigned workers = config.options.host_threads;
  if (workers == 0) workers = std::max(1u, std::thread::hardware_concurrency());
  workers = static_cast<unsigned>(std::min<std::uint64_t>(workers, units - first_unit));
  // Each cluster has a host thread per block (only one of which runs at a time), and all its
  // blocks' threads are fibers alive at once, each stack two memory mappings: at most 16384 of
  // them (Linux allows a process 65530 mappings by default).
  if (k > 1) {
    const std::uint64_t fibers =
        std::uint64_t{k} * config.block.x * config.block.y * config.block.z;
    workers = std::min(workers, std::max(1u, 256u / k));
    workers = static_cast<unsigned>(
        std::min<std::uint64_t>(workers, std::max<std::uint64_t>(1, 16384 / fibers)));
  }

  GridState state;
  state.next.store(first_unit);
  FaultGate gate;
  auto work = [&]() noexcept {
    // before its first block: a fault is reported only once this thread stops
    gate.running.fetch_add(1);
    t_gate = &gate;
    try {
      StackPool stacks;
      std::optional<BlockRunner> runner;
      std::optional<Cluster> cluster;
      if (k == 1)
        runner.emplace(config, stacks);
      else
        cluster.emplace(config, &gate);
      while (!state.stop.load(std::memory_order_relaxed) &&
             !gate.faulted.load(std::memory_order_relaxed)) {
        const std::uint64_t u = state.next.fetch_add(1, std::memory_order_relaxed);
        if (u >= units) break;
        if (k == 1) {
          const uint3 index{static_cast<unsigned>(u % gx), static_cast<unsigned>(u / gx % gy),
                            static_cast<unsigned>(u / (gx * gy))};
          if (std::exception_ptr e = runner->run(index)) {
            state.record(u, std::move(e));
            break;
          }
        } else {
          cluster->run(cluster_origin(config, u), false);
          if (std::exception_ptr e = cluster->error()) {
            state.record(cluster->first_linear_block(), std::move(e));
            break;
          }
        }
        if (config.options.progress_every_s > 0) maybe_say_progress(config, (u + 1) * k, blocks);
        if (const RunHook hook = run_hook()) hook((u + 1) * k, blocks);
      }
    } catch (...) {
      state.record(std::numeric_limits<std::uint64_t>::max(), std::current_exception());
    }
    t_gate = nullptr;
    gate.stopped();
  };

  std::vector<std::thread> pool;
  try {
    pool.reserve(workers - 1);
    for (unsigned i = 1; i < workers; ++i) pool.emplace_back(work);
  } catch (...) {
    state.stop.store(true);
    for (auto& t : pool) t.join();
    throw;
  }
  work();
  for (auto& t : pool) t.join();
  if (state.error) std::rethrow_exception(state.error);
}

}  // namespace rl::sim::detail

namespace rl::sim {
namespace {
std::atomic<RunHook> the_run_hook{nullptr};
}  // namespace

void set_run_hook(RunHook hook) { the_run_hook.store(hook, std::memory_order_release); }
RunHook run_hook() { return the_run_hook.load(std::memory_order_acquire); }

bool stop_on_kernel_fault(const void* address, FaultReport report) noexcept {
  detail::FaultGate* gate = detail::t_gate;
  const detail::BlockRunner* runner = detail::BlockRunner::current();
  if (gate == nullptr || runner == nullptr) return false;
  describe_fault(address, detail::t_fault_line, sizeof detail::t_fault_line);
  gate->record(runner->linear_block(), detail::t_fault_line);
  gate->report.store(report);
  gate->faulted.store(true);
  gate->stopped();
  for (;;) ::pause();  // the thread that reports ends the process
}

}  // namespace rl::sim
