#include "common/host/timeline_calls.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "common/host/kernel_name.h"
#include "common/host/profile_record.h"  // size_label, lesson_label
#include "common/host/results.h"
#include "common/host/stats.h"
#include "common/host/table.h"

namespace rl {
namespace {

double us(std::uint64_t from_ns, std::uint64_t to_ns) {
  return (static_cast<double>(to_ns) - static_cast<double>(from_ns)) / 1e3;
}

const char* kind_name(DeviceRecord::Kind k) {
  switch (k) {
    case DeviceRecord::Kind::kernel:
      return "kernel";
    case DeviceRecord::Kind::memset:
      return "memset";
    case DeviceRecord::Kind::memcpy:
      return "memcpy";
  }
  return "?";
}

double median_of(std::vector<double> v) { return summarize(std::move(v)).median; }

// A call's sequence of device activities and of API functions (with how often each was called),
// as one text: calls with equal texts did the same things in the same order.
std::string sequence_of(const CallBreakdown& c) {
  std::string s;
  for (std::size_t i = 0; i < c.kinds.size(); ++i)
    s.append(kind_name(c.kinds[i])).append(" ").append(c.names[i]).append("\n");
  for (std::size_t i = 0; i < c.api_names.size(); ++i)
    s.append(c.api_names[i]).append(" x").append(std::to_string(c.api_calls[i])).append("\n");
  return s;
}

// The activity's label in a table cell: a kernel's own identifier, a copy's direction.
std::string short_label(const nlohmann::json& a) {
  const std::string kind = a.at("kind").get<std::string>();
  return kind == "kernel" ? kernel_identifier(a.at("name").get<std::string>())
                          : a.at("name").get<std::string>();
}

}  // namespace

std::vector<CallRecords> split_into_calls(std::vector<ApiRecord> api,
                                          std::vector<DeviceRecord> device,
                                          const std::vector<CallWindow>& windows) {
  std::vector<CallRecords> calls(windows.size());
  // The window holding t, or windows.size(): windows are in time order and do not overlap.
  const auto window_of = [&](std::uint64_t t) {
    const auto after =
        std::upper_bound(windows.begin(), windows.end(), t,
                         [](std::uint64_t time, const CallWindow& w) { return time < w.begin; });
    if (after == windows.begin()) return windows.size();
    const auto w = static_cast<std::size_t>(after - windows.begin()) - 1;
    return t <= windows[w].end ? w : windows.size();
  };
  std::sort(api.begin(), api.end(), [](auto& a, auto& b) { return a.start < b.start; });
  std::sort(device.begin(), device.end(), [](auto& a, auto& b) { return a.start < b.start; });
  for (auto& a : api)
    if (const auto w = window_of(a.start); w < windows.size()) calls[w].api.push_back(std::move(a));
  for (auto& d : device)
    if (const auto w = window_of(d.start); w < windows.size())
      calls[w].device.push_back(std::move(d));
  return calls;
}

CallBreakdown break_down(const CallRecords& records) {
  // The API calls the caller made: runtime calls, and driver calls outside every runtime call.
  CallRecords call{{}, records.device};
  std::sort(call.device.begin(), call.device.end(),
            [](auto& a, auto& b) { return a.start < b.start; });
  for (const auto& a : records.api) {
    const bool nested =
        a.driver && std::any_of(records.api.begin(), records.api.end(), [&](const ApiRecord& r) {
          return !r.driver && r.start <= a.start && a.end <= r.end;
        });
    if (!nested) call.api.push_back(a);
  }
  if (call.api.empty()) throw std::runtime_error("a call with no API record");
  std::sort(call.api.begin(), call.api.end(), [](auto& a, auto& b) { return a.start < b.start; });
  const auto first_kernel =
      std::find_if(call.device.begin(), call.device.end(),
                   [](const DeviceRecord& d) { return d.kind == DeviceRecord::Kind::kernel; });
  if (first_kernel == call.device.end()) throw std::runtime_error("a call with no kernel");
  CallBreakdown b;
  const std::uint64_t first_api = call.api.front().start;
  std::uint64_t last_api = 0, last_device = 0;
  for (const auto& a : call.api) last_api = std::max(last_api, a.end);
  for (const auto& d : call.device) last_device = std::max(last_device, d.end);
  b.first_api_to_first_kernel_us = us(first_api, first_kernel->start);
  b.total_us = us(first_api, last_device);
  b.host_wall_us = us(first_api, last_api);
  // Host code: the span minus the union of the API calls (sorted by start, so merged in one pass).
  double inside_api_us = 0;
  std::uint64_t covered_to = first_api;
  for (const auto& a : call.api) {
    const std::uint64_t from = std::max(a.start, covered_to);
    if (a.end > from) inside_api_us += us(from, a.end);
    covered_to = std::max(covered_to, a.end);
  }
  b.host_us = b.host_wall_us - inside_api_us;
  for (std::size_t i = 0; i < call.device.size(); ++i) {
    const auto& d = call.device[i];
    b.kinds.push_back(d.kind);
    b.names.push_back(d.name);
    b.activity_us.push_back(us(d.start, d.end));
    if (i > 0) b.gaps_us.push_back(us(call.device[i - 1].end, d.start));
  }
  for (const auto& a : call.api) {
    const auto at = std::find(b.api_names.begin(), b.api_names.end(), a.name);
    const auto k = static_cast<std::size_t>(at - b.api_names.begin());
    if (at == b.api_names.end()) {
      b.api_names.push_back(a.name);
      b.api_calls.push_back(0);
      b.api_us.push_back(0);
    }
    ++b.api_calls[k];
    b.api_us[k] += us(a.start, a.end);
  }
  return b;
}

nlohmann::json timeline_entry(const TimedCall& what, const std::vector<CallBreakdown>& calls) {
  if (calls.empty()) throw std::runtime_error("timeline: no calls to summarize");
  // The most common sequence of device activities and API calls: the calls that share it give the
  // per-activity medians.
  std::map<std::string, std::size_t> seen;
  for (const auto& c : calls) ++seen[sequence_of(c)];
  const std::string modal = std::max_element(seen.begin(), seen.end(), [](auto& a, auto& b) {
                              return a.second < b.second;
                            })->first;
  std::vector<const CallBreakdown*> like;
  for (const auto& c : calls)
    if (sequence_of(c) == modal) like.push_back(&c);
  const auto median_over = [](const auto& set, auto field) {
    std::vector<double> v;
    for (const auto& c : set) v.push_back(field(c));
    return median_of(std::move(v));
  };
  const CallBreakdown& pattern = *like.front();
  nlohmann::json activities = nlohmann::json::array();
  for (std::size_t i = 0; i < pattern.kinds.size(); ++i)
    activities.push_back(
        {{"kind", kind_name(pattern.kinds[i])},
         {"name", pattern.names[i]},
         {"us", median_over(like, [&](const CallBreakdown* c) { return c->activity_us[i]; })}});
  nlohmann::json gaps = nlohmann::json::array();
  for (std::size_t i = 0; i < pattern.gaps_us.size(); ++i)
    gaps.push_back(median_over(like, [&](const CallBreakdown* c) { return c->gaps_us[i]; }));
  nlohmann::json api = nlohmann::json::array();
  for (std::size_t i = 0; i < pattern.api_names.size(); ++i)
    api.push_back(
        {{"name", pattern.api_names[i]},
         {"calls", pattern.api_calls[i]},
         {"us", median_over(like, [&](const CallBreakdown* c) { return c->api_us[i]; })}});
  return {
      {"lesson", what.lesson},
      {"slug", what.slug},
      {"variant", what.variant},
      {"n", what.n},
      {"block", what.block},
      {"calls", calls.size()},
      {"calls_like_median", like.size()},
      {"first_api_to_first_kernel_us",
       median_over(calls, [](const CallBreakdown& c) { return c.first_api_to_first_kernel_us; })},
      {"activities", activities},
      {"gaps_us", gaps},
      {"host_us", median_over(calls, [](const CallBreakdown& c) { return c.host_us; })},
      {"host_wall_us", median_over(calls, [](const CallBreakdown& c) { return c.host_wall_us; })},
      {"total_us", median_over(calls, [](const CallBreakdown& c) { return c.total_us; })},
      {"api", api}};
}

nlohmann::json timeline_document(const nlohmann::json& device, const std::string& tool,
                                 const nlohmann::json& method,
                                 const std::vector<nlohmann::json>& entries) {
  return {{"schema", "reducelab.timeline"},
          {"version", timeline_schema_version},
          {"created_utc", utc_now()},
          {"tool", tool},
          {"device", device},
          {"method", method},
          {"entries", entries}};
}

void check_timeline_document(const nlohmann::json& doc) {
  if (!doc.is_object() || doc.value("schema", "") != "reducelab.timeline")
    throw std::runtime_error(
        "not a reducelab.timeline record (its \"schema\" is not \"reducelab.timeline\")");
  if (doc.value("version", 0) != timeline_schema_version)
    throw std::runtime_error("reducelab.timeline version " + doc["version"].dump() +
                             ", this program reads version " +
                             std::to_string(timeline_schema_version));
  if (!doc.contains("entries") || !doc["entries"].is_array())
    throw std::runtime_error("reducelab.timeline record without an \"entries\" list");
}

void print_timeline_table(std::ostream& out, const nlohmann::json& doc) {
  check_timeline_document(doc);
  Table t({"lesson", "variant", "block", "n", "first API -> kernel", "device activities (us)",
           "gaps (us)", "host code", "host wall", "total", "API calls"});
  const auto time = [](const nlohmann::json& v) { return fixed(v.get<double>(), 2) + " us"; };
  for (const auto& e : doc["entries"]) {
    std::string activities, gaps;
    for (const auto& a : e.at("activities"))
      activities += (activities.empty() ? "" : "; ") + short_label(a) + " " +
                    fixed(a.at("us").get<double>(), 2);
    for (const auto& g : e.at("gaps_us")) gaps += (gaps.empty() ? "" : "; ") + fixed(g, 2);
    unsigned api_calls = 0;
    for (const auto& a : e.at("api")) api_calls += a.at("calls").get<unsigned>();
    t.add({lesson_label(e.at("lesson").get<int>()),
           e.at("variant").get<std::string>().empty() ? "-" : e["variant"].get<std::string>(),
           std::to_string(e.at("block").get<unsigned>()),
           size_label(e.at("n").get<std::uint64_t>()), time(e.at("first_api_to_first_kernel_us")),
           activities, gaps.empty() ? "-" : gaps, time(e.at("host_us")), time(e.at("host_wall_us")),
           time(e.at("total_us")), std::to_string(api_calls)});
  }
  t.print(out);
}

}  // namespace rl
