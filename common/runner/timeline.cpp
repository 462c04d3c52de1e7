#include "common/runner/timeline.h"

#include <iostream>

#include "common/host/harness.h"
#include "common/host/timeline_calls.h"
#include "common/runner/mode_options.h"

#ifndef RL_HAVE_CUPTI
#define RL_HAVE_CUPTI 0  // CMake defines it 1 where it found CUPTI
#endif

#if RL_HAVE_CUPTI
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include <cupti.h>

#include "common/host/course.h"
#include "common/host/kernel_name.h"
#include "common/host/profile_record.h"  // size_label
#include "common/host/results.h"
#endif

#ifndef RL_NO_CUPTI_WHY
#define RL_NO_CUPTI_WHY "CUPTI was not found when it was configured"
#endif

namespace rl {

#if RL_HAVE_CUPTI
namespace {

void cupti_check(CUptiResult r, const char* call) {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  throw std::runtime_error(std::string("CUPTI: ") + call + ": " + (text ? text : "unknown error"));
}
#define RL_CUPTI(call) cupti_check((call), #call)

// What CUPTI's buffer callbacks collect (on CUPTI's thread, or in cuptiActivityFlushAll).
struct Collected {
  std::mutex mutex;
  std::vector<ApiRecord> api;
  std::vector<DeviceRecord> device;
  std::size_t dropped = 0;
  std::string error;  // the first failure inside a callback, which may not throw
  std::map<std::string, std::string> kernel_names;  // symbol -> demangled, without arguments
  // Records that start before this are dropped (set/reset around the timed calls).
  std::atomic<std::uint64_t> keep_from{std::numeric_limits<std::uint64_t>::max()};
};
Collected& collected() {
  static auto* c = new Collected;  // never destroyed: CUPTI's thread may call back until exit
  return *c;
}

constexpr std::size_t buffer_bytes = std::size_t{8} << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  // CUPTI needs 8-byte aligned buffers; 0 records: fill the buffer.
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, buffer_bytes));
  *size = *buffer ? buffer_bytes : 0;
  *max_records = 0;
}

// "cudaLaunchKernel" for "cudaLaunchKernel_v7000": the version suffix says nothing to a reader.
std::string function_name(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  const char* name = nullptr;
  if (cuptiGetCallbackName(domain, id, &name) != CUPTI_SUCCESS || !name)
    return "API call " + std::to_string(id);
  std::string s(name);
  const auto v = s.rfind("_v");
  if (v != std::string::npos && v + 2 < s.size() &&
      std::all_of(s.begin() + static_cast<long>(v) + 2, s.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    s.resize(v);
  return s;
}

std::string copy_name(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return "memcpy PtoP";
    default:
      return "memcpy";
  }
}

void keep(Collected& c, const CUpti_Activity* record) {
  const std::uint64_t from = c.keep_from.load();
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      const bool driver = record->kind == CUPTI_ACTIVITY_KIND_DRIVER;
      if (a->start >= from)
        c.api.push_back(
            {function_name(driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API,
                           a->cbid),
             a->start, a->end, driver});
      break;
    }
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      if (k->start < from) break;
      std::string& name = c.kernel_names[k->name ? k->name : "?"];
      if (name.empty()) name = kernel_without_arguments(demangle(k->name ? k->name : "?"));
      c.device.push_back({DeviceRecord::Kind::kernel, name, k->start, k->end, 0});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      if (m->start >= from)
        c.device.push_back(
            {DeviceRecord::Kind::memcpy, copy_name(m->copyKind), m->start, m->end, m->bytes});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      if (m->start >= from)
        c.device.push_back({DeviceRecord::Kind::memset, "memset", m->start, m->end, m->bytes});
      break;
    }
    default:
      break;
  }
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  Collected& c = collected();
  {
    const std::lock_guard lock(c.mutex);
    CUpti_Activity* record = nullptr;
    while (true) {
      const CUptiResult r = cuptiActivityGetNextRecord(buffer, valid, &record);
      if (r == CUPTI_ERROR_MAX_LIMIT_REACHED) break;  // the buffer's last record was read
      if (r != CUPTI_SUCCESS) {
        const char* text = nullptr;
        cuptiGetResultString(r, &text);
        if (c.error.empty()) c.error = std::string("reading a record: ") + (text ? text : "?");
        break;
      }
      keep(c, record);
    }
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS)
      c.dropped += dropped;
  }
  std::free(buffer);
}

constexpr CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
                                        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                        CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};

std::uint64_t now() {
  std::uint64_t t = 0;
  RL_CUPTI(cuptiGetTimestamp(&t));
  return t;
}

// The records of one plan at the session's size: first a checked call, then one call on each
// rotated input copy (at least three) as warm-up, then `calls` timed calls that go on round the
// copies, each ended by a synchronize and bracketed by CUPTI timestamps.
nlohmann::json time_plan(Session& session, const Plan& plan, unsigned block, unsigned calls) {
  Device& device = session.device();
  const CaseResult checked = session.run(plan, block, false);
  if (!checked.check.verified)
    throw std::runtime_error("wrong result: " + std::to_string(checked.check.got) +
                             ", the reference is " + std::to_string(checked.check.reference.sum));
  const DeviceShape shape = device.shape();
  DeviceBuffer out(device, sizeof(float));
  DeviceBuffer scratch(device, plan.scratch_bytes(session.n(), block, shape));
  const auto call = [&](std::size_t copy) {
    plan.reduce({session.device_input(copy), out.get<float>(), session.n(), block, scratch.get(),
                 shape, device.stream()});
    device.synchronize();
  };
  const std::size_t copies = session.copies();
  const std::size_t warmup = std::max<std::size_t>(3, copies);
  for (std::size_t i = 0; i < warmup; ++i) call(i % copies);
  Collected& c = collected();
  RL_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));  // the warm-up's, dropped
  {
    const std::lock_guard lock(c.mutex);
    c.api.clear();
    c.device.clear();
    c.keep_from = now();
  }
  std::vector<CallWindow> windows;
  for (unsigned k = 0; k < calls; ++k) {
    const std::uint64_t begin = now();
    call((warmup + k) % copies);
    windows.push_back({begin, now()});
  }
  RL_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::vector<ApiRecord> api;
  std::vector<DeviceRecord> work;
  {
    const std::lock_guard lock(c.mutex);
    c.keep_from = std::numeric_limits<std::uint64_t>::max();
    api.swap(c.api);
    work.swap(c.device);
    // Each plan's own failures: reset, so that the next plan starts clean.
    if (const std::string error = std::exchange(c.error, ""); !error.empty())
      throw std::runtime_error("CUPTI: " + error);
    if (const std::size_t dropped = std::exchange(c.dropped, 0))
      throw std::runtime_error("CUPTI dropped " + std::to_string(dropped) + " records");
  }
  std::vector<CallBreakdown> breakdowns;
  for (const auto& records : split_into_calls(std::move(api), std::move(work), windows))
    breakdowns.push_back(break_down(records));
  return timeline_entry(
      {plan.lesson, std::string(plan.slug), std::string(plan.variant), session.n(), block},
      breakdowns);
}

int record_timeline(const TimelineOptions& o) {
  Plans gpu_plans;
  for (const Plan& p : ladder_plans())
    if (p.backend == Backend::gpu) gpu_plans.push_back(p);
  const auto sizes = parse_size_list(o.sizes, "--n");
  const auto lessons = parse_lesson_list(o.lessons, "--lessons", gpu_plans);
  const auto calls = static_cast<unsigned>(parse_count(o.calls, "--calls", 10000));
  if (calls == 0) throw UsageError("--calls must be at least 1 (got 0)");
  if (!o.json_path.empty()) check_output_path(o.json_path, "--json");

  std::string why;
  const auto gpu = make_gpu_device(&why);
  if (!gpu) throw UsageError("timeline needs an NVIDIA GPU: " + why);
  // On from here: nothing before the first timed call is kept anyway (Collected::keep_from).
  RL_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  for (const CUpti_ActivityKind kind : kinds) RL_CUPTI(cuptiActivityEnable(kind));
  std::uint32_t version = 0;
  RL_CUPTI(cuptiGetVersion(&version));
  const std::string tool = "CUPTI API version " + std::to_string(version);
  std::cout << "timeline: " << gpu->name() << ", " << tool << ", median of " << calls << " calls\n";

  RunOptions options;  // the default input (seed, uniform), as every lesson's
  Session session(*gpu, options);
  std::vector<nlohmann::json> entries;
  std::vector<std::string> failures;
  for (const std::uint64_t n : sizes) {
    session.check_fits(n);
    session.prepare(n);
    for (const Plan& p : gpu_plans) {
      if (std::find(lessons.begin(), lessons.end(), p.lesson) == lessons.end()) continue;
      const unsigned block = block_for(p, options.block, false);
      const std::string what = plan_label(p) + ", n = " + size_label(n);
      std::cerr << "\rtimeline: " << what << "          " << std::flush;
      try {
        entries.push_back(time_plan(session, p, block, calls));
      } catch (const std::exception& e) {
        failures.push_back(what + ": " + e.what());
      }
    }
  }
  for (const CUpti_ActivityKind kind : kinds) RL_CUPTI(cuptiActivityDisable(kind));
  RL_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));  // nothing left to come
  std::cerr << "\rtimeline: done                                        \n";
  for (const auto& f : failures) std::cerr << "timeline: FAILED: " << f << '\n';
  const nlohmann::json method = {
      {"calls", calls},
      {"statistic", "median"},
      {"call", "the plan's launches, then cudaStreamSynchronize; CUPTI timestamps around it"},
      {"warmup", "one call on each rotated input copy (at least 3) before the timed calls"},
      {"cache", "inputs rotated over >= 3x L2, the session's copies taken in turn"},
      {"records",
       "CUPTI activity: RUNTIME, DRIVER (those outside runtime calls), "
       "CONCURRENT_KERNEL, MEMCPY, MEMSET"}};
  const auto doc = timeline_document(gpu->describe(), tool, method, entries);
  std::cout << '\n';
  print_timeline_table(std::cout, doc);
  if (!o.json_path.empty()) {
    write_json_file(o.json_path, doc);
    std::cout << "\nwrote " << entries.size() << " entries to " << o.json_path << '\n';
  }
  return failures.empty() ? exit_ok : exit_failed;
}

}  // namespace
#endif

bool timeline_built() { return RL_HAVE_CUPTI; }
std::string timeline_absent_reason() { return RL_HAVE_CUPTI ? "" : RL_NO_CUPTI_WHY; }

int run_timeline(const TimelineOptions& o) {
  if (!o.from.empty()) {
    const auto doc = read_json_option(o.from, "--from");
    try {
      print_timeline_table(std::cout, doc);
    } catch (const std::exception& e) {
      throw UsageError("--from: '" + o.from + "': " + e.what());
    }
    return exit_ok;
  }
#if RL_HAVE_CUPTI
  return record_timeline(o);
#else
  throw UsageError("timeline needs CUPTI, which this build lacks (" + timeline_absent_reason() +
                   "): only --from FILE works here");
#endif
}

}  // namespace rl
