// What a launch's host threads share when a kernel faults (stop_on_kernel_fault, runtime.h). Only
// lock-free atomics and a spin lock: a signal handler uses it.
#pragma once
#include <atomic>
#include <cstdint>
#include <limits>

#include "common/sim/runtime.h"

namespace rl::sim::detail {

struct FaultGate {
  std::atomic<unsigned> running{0};  // host threads of the launch that have not stopped
  std::atomic<bool> faulted{false};
  std::atomic_flag lock = ATOMIC_FLAG_INIT;
  std::uint64_t block = std::numeric_limits<std::uint64_t>::max();  // the lowest faulting block
  const char* line = nullptr;                                       // and its report
  std::atomic<FaultReport> report{nullptr};

  void record(std::uint64_t b, const char* text) noexcept {
    while (lock.test_and_set(std::memory_order_acquire)) {
    }
    if (b < block) {
      block = b;
      line = text;
    }
    lock.clear(std::memory_order_release);
  }

  // A host thread stops: after its last block, or at its fault. The last to stop after a fault
  // reports it; every block that had started has ended by then.
  void stopped() noexcept {
    if (running.fetch_sub(1, std::memory_order_acq_rel) == 1 && faulted.load()) {
      while (lock.test_and_set(std::memory_order_acquire)) {
      }
      report.load()(line);
    }
  }
};

// The launch whose blocks this host thread runs. A cluster's host threads (cluster.h) share the
// gate of the host thread that runs the cluster and are not counted in `running`: while one of
// them runs, that host thread waits, so a fault in one stops in its name.
inline thread_local FaultGate* t_gate = nullptr;

}  // namespace rl::sim::detail
