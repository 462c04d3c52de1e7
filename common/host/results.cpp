#include "common/host/results.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace rl {

std::string committed_asset_path(const std::string& relative) {
  const std::string in_tree = "assets/" + relative;
  return std::filesystem::exists(in_tree) ? in_tree : std::string(RL_SOURCE_DIR) + "/" + in_tree;
}

std::string utc_now() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::ostringstream s;
  s << std::put_time(std::gmtime(&now), "%Y-%m-%dT%H:%M:%SZ");
  return s.str();
}

nlohmann::json to_json(const Timing& t) {
  return {{"median_ms", t.ms.median},
          {"min_ms", t.ms.min},
          {"max_ms", t.ms.max},
          {"samples", t.ms.count},
          {"calls_per_sample", t.calls_per_sample},
          {"simulated", t.simulated},
          {"launch", to_string(t.way)}};
}

nlohmann::json to_json(const Summary& device_ms) {
  return {{"median_ms", device_ms.median},
          {"min_ms", device_ms.min},
          {"max_ms", device_ms.max},
          {"calls", device_ms.count},
          {"clock",
           "CUPTI kernel records: the time at least one of the call's kernels ran, one "
           "call at a time"}};
}

nlohmann::json to_json(const Baseline& b) {
  nlohmann::json j{{"n", b.n}};
  if (b.ceiling) {
    j["stream_read"] = to_json(b.ceiling->read);
    j["stream_read_gbps"] = b.ceiling->read_gbps;
    j["stream_read_block"] = b.ceiling->read_block;
    j["stream_read_grid"] = b.ceiling->read_grid;
    j["copy_gbps"] = b.ceiling->copy_gbps;
    if (b.ceiling->device_ms) j["stream_read_device_time"] = to_json(*b.ceiling->device_ms);
  }
  // The ceiling launched each other way a rung was.
  nlohmann::json ways = nlohmann::json::array();
  for (const auto& c : b.ceilings) {
    nlohmann::json w{{"launch", to_string(c.read.way)},
                     {"time", to_json(c.read)},
                     {"gbps", c.read_gbps},
                     {"block", c.read_block},
                     {"grid", c.read_grid}};
    if (c.device_ms) w["device_time"] = to_json(*c.device_ms);
    ways.push_back(w);
  }
  if (!ways.empty()) j["stream_read_ways"] = ways;
  if (b.cub) {
    j["cub"] = to_json(*b.cub);
    j["cub_gbps"] = gigabytes_per_second(b.n, b.cub->ms.median);
    if (b.cub_check) j["cub_verified"] = b.cub_check->verified;
    if (b.cub_device_ms) j["cub_device_time"] = to_json(*b.cub_device_ms);
  }
  if (b.cub_graph) j["cub_graph"] = to_json(*b.cub_graph);
  // Ways where a rung read faster than the ceiling kernel: that rung's time is the ceiling.
  nlohmann::json fastest = nlohmann::json::array();
  for (const FastestRead& f : b.fastest)
    fastest.push_back({{"launch", to_string(f.way)}, {"median_ms", f.ms}, {"by", f.by}});
  if (!fastest.empty()) j["faster_than_the_ceiling_kernel"] = fastest;
  return j;
}

nlohmann::json to_json(const CaseResult& r, const RunOptions& o, const Baseline* baseline) {
  nlohmann::json j{{"lesson", r.plan.lesson},
                   {"slug", r.plan.slug},
                   {"title", r.plan.title},
                   {"variant", r.plan.variant},
                   {"backend", to_string(r.plan.backend)},
                   {"n", r.n},
                   {"block", r.block},
                   {"dtype", "float32"},
                   {"seed", o.seed},
                   {"distribution", to_string(o.distribution)},
                   {"result", r.check.got},
                   {"reference", r.check.reference.sum},
                   {"abs_error", std::abs(r.check.got - r.check.reference.sum)},
                   {"tolerance", r.check.tolerance},
                   {"verified", r.check.verified}};
  if (r.timing) {
    j["time"] = to_json(*r.timing);
    if (!r.timing->simulated) j["gbps"] = r.gbps;
  }
  if (r.device_ms) {
    j["device_time"] = to_json(*r.device_ms);
    j["launch_bound"] = launch_bound(*r.timing, r.device_ms);
  }
  // Each against the yardstick launched as this rung was (Baseline::ceiling_for, cub_for).
  if (baseline && r.timing && !r.timing->simulated) {
    if (const auto pct = percent_of_ceiling(r, *baseline)) j["pct_of_ceiling"] = *pct;
    if (const auto x = times_cub(r, *baseline)) j["vs_cub"] = *x;
  }
  return j;
}

nlohmann::json table_record(const std::string& schema, Device& device, std::uint64_t seed,
                            unsigned samples) {
  return {{"schema", schema},
          {"version", results_schema_version},
          {"created_utc", utc_now()},  // the README tables say when they were measured
          {"backend", std::string(to_string(device.backend()))},
          {"device", device.describe()},
          {"seed", seed},
          {"timing",
           {{"samples", samples},
            {"statistic", "median"},
            {"cache", "inputs rotated over >= 3x L2 where memory allows"}}}};
}

nlohmann::json results_document(Device& device, const RunOptions& o,
                                const std::vector<nlohmann::json>& runs,
                                const std::vector<nlohmann::json>& baselines) {
  return {{"schema", "reducelab.results"},
          {"version", results_schema_version},
          {"created_utc", utc_now()},
          {"backend", to_string(device.backend())},
          {"device", device.describe()},
          {"timing",
           {{"samples", samples(o, device.backend())},
            {"statistic", "median"},
            {"cache", "inputs rotated over >= 3x L2"}}},
          {"runs", runs},
          {"baselines", baselines}};
}

void write_json_file(const std::string& path, const nlohmann::json& doc,
                     const std::string& option) {
  std::ofstream f(path);
  if (!f) throw UsageError(option + ": cannot write '" + path + "' (" + std::strerror(errno) + ")");
  f << doc.dump(2) << '\n';
  if (!f)
    throw UsageError(option + ": writing '" + path + "' failed (" + std::strerror(errno) + ")");
}

}  // namespace rl
