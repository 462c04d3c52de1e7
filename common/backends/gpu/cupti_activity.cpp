#include "common/backends/gpu/cupti_activity.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/host/kernel_name.h"

namespace rl::cupti {
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

std::vector<CUpti_ActivityKind>& enabled() {
  static std::vector<CUpti_ActivityKind> kinds;
  return kinds;
}

void drop_collected() {
  Collected& c = collected();
  const std::lock_guard lock(c.mutex);
  c.api.clear();
  c.device.clear();
  c.error.clear();
  c.dropped = 0;
}

}  // namespace

std::uint64_t now() {
  std::uint64_t t = 0;
  RL_CUPTI(cuptiGetTimestamp(&t));
  return t;
}

void start(std::initializer_list<CUpti_ActivityKind> kinds) {
  static const bool registered = [] {
    RL_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
    return true;
  }();
  (void)registered;
  if (!enabled().empty()) throw std::logic_error("cupti::start: a collection is already running");
  for (const CUpti_ActivityKind kind : kinds) {
    RL_CUPTI(cuptiActivityEnable(kind));
    enabled().push_back(kind);
  }
  RL_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));  // what came before: dropped
  drop_collected();
  collected().keep_from = now();
}

Records take() {
  RL_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  Collected& c = collected();
  Records r;
  const std::lock_guard lock(c.mutex);
  r.api.swap(c.api);
  r.device.swap(c.device);
  if (const std::string error = std::exchange(c.error, ""); !error.empty())
    throw std::runtime_error("CUPTI: " + error);
  if (const std::size_t dropped = std::exchange(c.dropped, 0))
    throw std::runtime_error("CUPTI dropped " + std::to_string(dropped) + " records");
  return r;
}

void stop() {
  collected().keep_from = std::numeric_limits<std::uint64_t>::max();
  for (const CUpti_ActivityKind kind : enabled()) cuptiActivityDisable(kind);
  enabled().clear();
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);  // nothing left to come
  drop_collected();
}

}  // namespace rl::cupti
