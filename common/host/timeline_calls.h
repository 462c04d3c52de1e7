#pragma once
// Where the time of one reduction call goes, from a profiler's activity records (CUPTI's, in
// `reducelab timeline`, common/runner/timeline.cpp): the host's runtime-API calls and the device's
// kernels, memsets and copies, each with start and end timestamps on one clock. The records of
// many calls are split into calls by the host's timestamps around each call, each call is broken
// down (launch latency, each activity, each gap, host code), and the medians over the calls make
// one entry of the reducelab.timeline record (common/PROFILE.md).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rl {

inline constexpr int timeline_schema_version = 1;

// One runtime- or driver-API call on the host ("cudaLaunchKernel", "cuLaunchKernelEx"), in ns. A
// driver call inside a runtime call is the runtime's own doing and is left out; one outside any
// (a library calling the driver itself) counts like a runtime call.
struct ApiRecord {
  std::string name;
  std::uint64_t start = 0, end = 0;
  bool driver = false;
};

// One piece of device work: a kernel, a memset or a copy ("memcpy DtoH"), in ns.
struct DeviceRecord {
  enum class Kind { kernel, memset, memcpy };
  Kind kind = Kind::kernel;
  std::string name;  // the kernel's demangled name without arguments, "memset", "memcpy DtoH"
  std::uint64_t start = 0, end = 0;
  std::uint64_t bytes = 0;  // memsets and copies
};

// The host's timestamps around one call: taken before its first runtime call and after the
// synchronize that ends it.
struct CallWindow {
  std::uint64_t begin = 0, end = 0;
};

struct CallRecords {
  std::vector<ApiRecord> api;        // in start order
  std::vector<DeviceRecord> device;  // in start order
};

// Each window's records: those that start inside it. Records outside every window (the warm-up's,
// the setup's) are dropped.
std::vector<CallRecords> split_into_calls(std::vector<ApiRecord> api,
                                          std::vector<DeviceRecord> device,
                                          const std::vector<CallWindow>& windows);

// One call, in microseconds.
struct CallBreakdown {
  double first_api_to_first_kernel_us = 0;  // first API entry to the first kernel's start
  double total_us = 0;                      // first API entry to the last device activity's end
  double host_wall_us = 0;                  // first API entry to the last API exit
  // Host time between the first API entry and the last API exit spent outside API calls:
  // the caller's own code (host_finish's CPU additions, a library's dispatch logic).
  double host_us = 0;
  std::vector<DeviceRecord::Kind> kinds;  // each device activity's kind, in order,
  std::vector<std::string> names;         // its name
  std::vector<double> activity_us;        // and its duration
  std::vector<double> gaps_us;            // activity i's end to activity i+1's start
  std::vector<std::string> api_names;     // each API function called, in first-call order
  std::vector<unsigned> api_calls;        // how often
  std::vector<double> api_us;             // and for how long, in all
};

// Throws std::runtime_error where the call has no API record or no kernel.
CallBreakdown break_down(const CallRecords& call);

// What the entry describes: one plan at one size and block.
struct TimedCall {
  int lesson = 0;
  std::string slug;
  std::string variant;
  std::uint64_t n = 0;
  unsigned block = 0;
};

// The entry: each figure's median over the calls. Per-activity durations and gaps are taken over
// the calls whose activities match the most common sequence ("calls_like_median" of "calls"), and
// the API list is that of those calls too.
nlohmann::json timeline_entry(const TimedCall& what, const std::vector<CallBreakdown>& calls);

// The whole document: schema, version, created_utc, tool ("CUPTI <version>"), device, how the
// calls were made, entries.
nlohmann::json timeline_document(const nlohmann::json& device, const std::string& tool,
                                 const nlohmann::json& method,
                                 const std::vector<nlohmann::json>& entries);

// Throws std::runtime_error unless `doc` is a reducelab.timeline record of this version.
void check_timeline_document(const nlohmann::json& doc);

// lesson | variant | block | n | first API -> kernel | device activities | gaps | host code |
// host wall | total | API calls: one row per entry.
void print_timeline_table(std::ostream& out, const nlohmann::json& doc);

}  // namespace rl
