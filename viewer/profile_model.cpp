#include "viewer/profile_model.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <tuple>

#include "viewer/json_reader.h"

namespace rl::viewer {

using nlohmann::json;

namespace {

KernelCounters read_counters(const JsonReader& r, const json& o, const std::string& where) {
  if (!o.is_object()) r.fail(where + "counters must be an object");
  KernelCounters c;
  const std::pair<const char*, std::optional<double>*> numbers[] = {
      {"duration_us", &c.duration_us},
      {"dram_pct_of_peak", &c.dram_pct_of_peak},
      {"dram_bytes_read", &c.dram_bytes_read},
      {"achieved_occupancy_pct", &c.achieved_occupancy_pct},
      {"theoretical_occupancy_pct", &c.theoretical_occupancy_pct},
      {"registers_per_thread", &c.registers_per_thread},
      {"shared_ld_requests", &c.shared_ld_requests},
      {"shared_st_requests", &c.shared_st_requests},
      {"shared_ld_bank_conflicts", &c.shared_ld_bank_conflicts},
      {"shared_st_bank_conflicts", &c.shared_st_bank_conflicts},
      {"shared_ld_wavefronts_per_request", &c.shared_ld_wavefronts_per_request},
      {"shared_st_wavefronts_per_request", &c.shared_st_wavefronts_per_request},
      {"threads_per_instruction", &c.threads_per_instruction},
      {"instructions", &c.instructions}};
  const std::string in = where + "counters.";
  for (const auto& [key, field] : numbers) {
    *field = r.opt(o, key, in);
    // Counts, percentages, times: none of them below zero.
    if (*field && **field < 0) r.fail(in + key + " must not be negative");
  }
  if (auto it = o.find("occupancy_limiter"); it != o.end() && !it->is_null()) {
    if (!it->is_string()) r.fail(in + "occupancy_limiter must be a string");
    c.occupancy_limiter = it->get<std::string>();
  }
  if (auto it = o.find("blocks_per_sm_limit"); it != o.end() && !it->is_null()) {
    if (!it->is_object()) r.fail(in + "blocks_per_sm_limit must be an object");
    for (const auto& [key, value] : it->items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>()))
        r.fail(in + "blocks_per_sm_limit." + key + " must be a finite number");
      c.blocks_per_sm_limit[key] = value.get<double>();
    }
  }
  if (auto it = o.find("top_stalls"); it != o.end() && !it->is_null()) {
    if (!it->is_array()) r.fail(in + "top_stalls must be an array");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string at = in + "top_stalls[" + std::to_string(i) + "]";
      const json& s = (*it)[i];
      if (!s.is_object()) r.fail(at + " must be an object");
      c.top_stalls.push_back({r.str(s, "reason", at + "."), r.num(s, "warps_per_issue", at + ".")});
    }
  }
  return c;
}

// Distance on a log2 scale: 2x off is 1, whichever way.
double log_distance(double a, double b) {
  return a > 0 && b > 0 ? std::abs(std::log2(a / b)) : 1e9;
}

}  // namespace

bool looks_like_profile(std::string_view text) {
  return text.find("\"reducelab.profile\"") != std::string_view::npos;
}

ProfileFile parse_profile(std::string_view text, const std::string& name) {
  const JsonReader r{name};
  const json doc = r.parse(text);
  r.expect_schema(doc, "reducelab.profile");
  ProfileFile f;
  f.path = name;
  f.tool = r.str_or(doc, "tool", "");
  f.created_utc = r.str_or(doc, "created_utc", "");
  const json& device = r.need(doc, "device", "");
  if (!device.is_object()) r.fail("device must be an object");
  f.device = r.str(device, "name", "device.");
  if (f.device.empty()) r.fail("device.name is empty");
  if (auto m = doc.find("metrics"); m != doc.end() && m->is_object()) {
    for (const auto& [key, value] : m->items())
      if (value.is_string()) f.metrics[key] = value.get<std::string>();
  }
  const json& kernels = r.need(doc, "kernels", "");
  if (!kernels.is_array()) r.fail("kernels must be an array");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string where = "kernel " + std::to_string(i) + ": ";
    const json& o = kernels[i];
    if (!o.is_object()) r.fail(where + "must be an object");
    ProfiledCall key;
    key.lesson = static_cast<int>(r.integer(o, "lesson", where, 0, 1000));
    key.slug = r.str(o, "slug", where);
    key.variant = r.str_or(o, "variant", "");
    key.n = static_cast<double>(r.integer(o, "n", where, 1, std::int64_t{1} << 50));
    key.block = static_cast<int>(r.integer(o, "block", where, 1, 1 << 20));
    ProfiledLaunch l;
    l.launch = static_cast<int>(r.integer(o, "launch", where, 0, 1 << 20));
    l.kernel = r.str(o, "kernel", where);
    if (o.contains("grid")) l.grid = r.integer(o, "grid", where, 1, std::int64_t{1} << 40);
    if (o.contains("block_threads"))
      l.block_threads = static_cast<int>(r.integer(o, "block_threads", where, 1, 1 << 20));
    l.counters = read_counters(r, r.need(o, "counters", where), where);
    auto same = [&](const ProfiledCall& c) {
      return std::tie(c.lesson, c.variant, c.n, c.block) ==
             std::tie(key.lesson, key.variant, key.n, key.block);
    };
    auto call = std::find_if(f.calls.begin(), f.calls.end(), same);
    if (call == f.calls.end()) {
      f.calls.push_back(std::move(key));
      call = f.calls.end() - 1;
    }
    for (const ProfiledLaunch& other : call->launches) {
      if (other.launch == l.launch)
        r.fail(where + "launch " + std::to_string(l.launch) + " of lesson " +
               std::to_string(call->lesson) + " \"" + call->variant +
               "\" at n=" + std::to_string(static_cast<long long>(call->n)) + ", block " +
               std::to_string(call->block) + " is listed twice");
    }
    call->launches.push_back(std::move(l));
  }
  for (ProfiledCall& c : f.calls) {
    std::sort(c.launches.begin(), c.launches.end(),
              [](const ProfiledLaunch& a, const ProfiledLaunch& b) { return a.launch < b.launch; });
  }
  return f;
}

ProfileFile load_profile(const std::string& path) { return parse_profile(read_record(path), path); }

const ProfiledCall* nearest_call(const ProfileFile& file, int lesson, const std::string& variant,
                                 double n, int block) {
  const ProfiledCall* best = nullptr;
  std::pair<double, double> best_distance{};
  for (const ProfiledCall& c : file.calls) {
    if (c.lesson != lesson || c.variant != variant) continue;
    const std::pair<double, double> d{log_distance(c.block, block), log_distance(c.n, n)};
    if (!best || d < best_distance) best = &c, best_distance = d;
  }
  return best;
}

ProfileMatch find_profiled(const std::vector<ProfileFile>& files, const std::string& device,
                           int lesson, const std::string& variant, double n, int block) {
  for (const ProfileFile& f : files) {
    if (!device.empty() && f.device != device) continue;
    if (const ProfiledCall* c = nearest_call(f, lesson, variant, n, block)) return {&f, c};
  }
  return {};
}

}  // namespace rl::viewer
