#pragma once
// CUPTI's activity records, collected: the one place that registers CUPTI's buffer callbacks, for
// `reducelab timeline` (every API call and device activity of a call) and the GPU backend's device
// time (the kernels of a call). Only where the build found CUPTI (RL_HAVE_CUPTI).
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <cupti.h>

#include "common/host/timeline_calls.h"  // ApiRecord, DeviceRecord

namespace rl::cupti {

// CUPTI's clock, the one its records are stamped with, in ns.
std::uint64_t now();

// Collects the records of these kinds (RUNTIME, DRIVER, CONCURRENT_KERNEL, MEMCPY, MEMSET are
// understood) from now until stop(); what came before is dropped. Not reentrant: one collection
// at a time.
void start(std::initializer_list<CUpti_ActivityKind> kinds);

struct Records {
  std::vector<ApiRecord> api;        // runtime and driver calls
  std::vector<DeviceRecord> device;  // kernels, memsets, copies
};
// Flushes CUPTI's buffers and returns what was collected since start(), in no particular order;
// collection goes on. Throws std::runtime_error where CUPTI reported an error or dropped records.
Records take();

// Stops collecting (disables the kinds start() enabled) and drops what is left.
void stop();

}  // namespace rl::cupti
