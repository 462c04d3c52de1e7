#include "viewer/counter_text.h"

#include <algorithm>
#include <cstdio>

#include "viewer/glossary.h"
#include "viewer/results_model.h"  // format_size

namespace rl::viewer {
namespace {

constexpr const char* kMicroseconds = "\xC2\xB5s";  // UTF-8; the default font draws Latin-1

std::string fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// 4197632 -> "4,197,632"
std::string grouped(double v) {
  std::string digits = fixed(v, 0), out;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

// 4197632 -> "4.20 MB"; 3328 -> "3.33 kB"
std::string bytes(double b) {
  if (b >= 1e9) return fixed(b / 1e9, 2) + " GB";
  if (b >= 1e6) return fixed(b / 1e6, 2) + " MB";
  if (b >= 1e3) return fixed(b / 1e3, 2) + " kB";
  return fixed(b, 0) + " B";
}

std::string words(std::string s) {
  std::replace(s.begin(), s.end(), '_', ' ');
  return s;
}

std::string measured_on(const ProfileFile& f) {
  return "Measured on " + f.device + " by " + (f.tool.empty() ? "Nsight Compute" : f.tool);
}

std::string metric(const ProfileFile& f, const char* key) {
  const auto it = f.metrics.find(key);
  return it == f.metrics.end() ? std::string(key) : it->second;
}

// A kernel's name as a line can hold it: a library's templates can run to hundreds of characters.
std::string short_name(const std::string& kernel) {
  return kernel.size() > 60 ? kernel.substr(0, 57) + "..." : kernel;
}

std::string lesson_name(const ProfiledCall& c) {
  char num[8];
  std::snprintf(num, sizeof num, "%02d ", c.lesson);
  return num + c.slug + (c.variant.empty() ? "" : " / " + c.variant);
}

// The limiter and the blocks per SM it allows, with any other limit that allows no more.
std::string limiter_phrase(const KernelCounters& c) {
  if (c.occupancy_limiter.empty()) return "";
  std::string s = "limited by " + words(c.occupancy_limiter);
  const auto it = c.blocks_per_sm_limit.find(c.occupancy_limiter);
  if (it == c.blocks_per_sm_limit.end()) return s;
  s += ": " + fixed(it->second, 0) + " blocks/SM";
  std::string ties;
  for (const auto& [name, blocks] : c.blocks_per_sm_limit) {
    if (name != c.occupancy_limiter && blocks == it->second)
      ties += (ties.empty() ? "" : ", ") + words(name);
  }
  return ties.empty() ? s : s + " (" + ties + " too)";
}

// "3.86" of passes, "none" where nothing was accessed, "-" where unknown.
std::string passes_text(double passes, bool none) {
  if (none) return "none";
  return passes < 0 ? "-" : fixed(passes, 2);
}

CounterRow shared_row(const ProfileFile& f, const KernelCounters& c, bool loads,
                      std::int64_t accesses, std::int64_t passes, int launch) {
  const auto& requests = loads ? c.shared_ld_requests : c.shared_st_requests;
  const auto& per_request =
      loads ? c.shared_ld_wavefronts_per_request : c.shared_st_wavefronts_per_request;
  const auto& conflicts = loads ? c.shared_ld_bank_conflicts : c.shared_st_bank_conflicts;
  const char* kind = loads ? "loads" : "stores";
  const char* op = loads ? "ld" : "st";
  CounterRow r;
  r.what = std::string("shared ") + kind + ": passes per warp access";
  r.trace =
      accesses > 0 ? fixed(static_cast<double>(passes) / static_cast<double>(accesses), 2) : "none";
  const double counted = counted_passes(requests, per_request, conflicts);
  r.counted = passes_text(counted, requests && *requests == 0);
  r.tip = std::string("1.00: no bank conflict; an n-way conflict needs n passes.\nTrace: its ") +
          std::to_string(accesses) + " warp-wide " + kind + " of launch " + std::to_string(launch) +
          " need " + std::to_string(passes) + " passes, bank by bank.";
  if (requests && per_request && conflicts) {
    const double wavefronts = *requests * *per_request;
    r.tip += "\nCounted: wavefronts / (wavefronts - bank conflicts) = " + grouped(wavefronts) +
             " / (" + grouped(wavefronts) + " - " + grouped(*conflicts) + "),\n  the wavefronts " +
             grouped(*requests) + " requests x " + fixed(*per_request, 3) +
             " per request.\n  requests: " +
             metric(f, (std::string("shared_") + op + "_requests").c_str()) +
             "\n  wavefronts per request: " +
             metric(f, (std::string("shared_") + op + "_wavefronts_per_request").c_str()) +
             "\n  bank conflicts: " +
             metric(f, (std::string("shared_") + op + "_bank_conflicts").c_str());
  }
  return r;
}

}  // namespace

std::vector<LaunchPrediction> predict_launches(const Trace& t, const StepIndex& steps) {
  std::vector<LaunchPrediction> out(t.launches.size());
  for (const Step& s : steps.steps) {
    LaunchPrediction& p = out[static_cast<std::size_t>(s.launch)];
    p.load_accesses += s.shared_loads;
    p.load_passes += s.load_passes;
    p.store_accesses += s.shared_stores;
    p.store_passes += s.store_passes;
    p.lanes += s.active_threads;
    p.warps += s.active_warps;
  }
  return out;
}

double counted_passes(const std::optional<double>& requests,
                      const std::optional<double>& wavefronts_per_request,
                      const std::optional<double>& bank_conflicts) {
  if (!requests || !wavefronts_per_request || !bank_conflicts) return -1;
  const double wavefronts = *requests * *wavefronts_per_request;
  const double conflict_free = wavefronts - *bank_conflicts;
  // Less than half a wavefront without a conflict: no access counted (or the figures disagree).
  return conflict_free >= 0.5 ? wavefronts / conflict_free : -1;
}

std::vector<std::string> launch_phrases(const ProfiledLaunch& l, bool registers, bool top_stall) {
  const KernelCounters& c = l.counters;
  std::vector<std::string> out;
  if (c.duration_us) out.push_back(fixed(*c.duration_us, 2) + " " + kMicroseconds);
  if (c.dram_pct_of_peak) {
    std::string s = "DRAM " + fixed(*c.dram_pct_of_peak, 1) + "% of peak";
    if (c.dram_bytes_read) s += " (" + bytes(*c.dram_bytes_read) + " read)";
    out.push_back(s);
  }
  if (c.achieved_occupancy_pct) {
    std::string s = "occupancy " + fixed(*c.achieved_occupancy_pct, 1) + "%";
    if (c.theoretical_occupancy_pct)
      s += " (theoretical " + fixed(*c.theoretical_occupancy_pct, 0) + "%)";
    out.push_back(s);
  }
  if (const std::string lim = limiter_phrase(c); !lim.empty()) out.push_back(lim);
  if (registers && c.registers_per_thread)
    out.push_back(fixed(*c.registers_per_thread, 0) + " registers/thread");
  if (top_stall && !c.top_stalls.empty()) {
    out.push_back("top stall: " + words(c.top_stalls.front().reason) + " (" +
                  fixed(c.top_stalls.front().warps_per_issue, 2) + " warps waiting per issue)");
  }
  return out;
}

std::vector<std::string> stall_phrases(const KernelCounters& c) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < c.top_stalls.size(); ++i) {
    out.push_back((i == 0 ? "top stalls (warps waiting per issue): " : "") +
                  words(c.top_stalls[i].reason) + " " + fixed(c.top_stalls[i].warps_per_issue, 2));
  }
  return out;
}

CounterPanel counter_panel(const ProfileFile& f, const ProfiledCall& call, int launch,
                           const Trace& t, const LaunchPrediction& predicted) {
  CounterPanel p;
  const int count = static_cast<int>(call.launches.size());
  // The launch of the same index; a trace with more launches than the profiled call: its last.
  const ProfiledLaunch& l =
      call.launches[static_cast<std::size_t>(std::clamp(launch, 0, count - 1))];
  p.title.push_back(measured_on(f));
  p.title.push_back(lesson_name(call) + " at n = " + format_size(call.n) + ", block " +
                    std::to_string(call.block));
  std::string which = "launch " + std::to_string(l.launch) + " of " + std::to_string(count) + ": " +
                      short_name(l.kernel);
  if (l.grid > 0) which += ", grid " + grouped(static_cast<double>(l.grid));
  if (l.block_threads > 0 && l.block_threads != call.block)
    which += " x " + std::to_string(l.block_threads) + " threads";
  p.title.push_back(which);
  if (launch >= count)
    p.caveat = "the trace's launch " + std::to_string(launch) + " beside the profiled call's last";
  else if (t.block != call.block)
    p.caveat = "this trace's block is " + std::to_string(t.block) + ", the profiled " +
               std::to_string(call.block) + ": per-access figures change with the block";
  p.trace_heading = "trace (" + t.backend + ")";
  p.rows.push_back(
      shared_row(f, l.counters, true, predicted.load_accesses, predicted.load_passes, launch));
  p.rows.push_back(
      shared_row(f, l.counters, false, predicted.store_accesses, predicted.store_passes, launch));
  CounterRow lanes;
  lanes.what = "lanes working per warp instruction (of 32)";
  lanes.trace =
      predicted.warps > 0
          ? fixed(static_cast<double>(predicted.lanes) / static_cast<double>(predicted.warps), 1)
          : "-";
  lanes.counted =
      l.counters.threads_per_instruction ? fixed(*l.counters.threads_per_instruction, 1) : "-";
  lanes.tip =
      "Trace: lanes with an event (a load, an addition, a store) per warp that has one,\n"
      "  over the steps of launch " +
      std::to_string(launch) +
      ": only the reduction's own work.\nCounted: threads per executed warp instruction, "
      "over every instruction the kernel ran\n  (index arithmetic and loop control "
      "included): " +
      metric(f, "threads_per_instruction");
  p.rows.push_back(lanes);
  p.facts = launch_phrases(l, true, false);
  p.stalls = stall_phrases(l.counters);
  p.facts_tip = "kernel: " + l.kernel;
  for (const char* key : {"duration_us", "dram_pct_of_peak", "achieved_occupancy_pct",
                          "theoretical_occupancy_pct", "occupancy_limiter", "top_stalls"})
    p.facts_tip += std::string("\n") + key + ": " + metric(f, key);
  // What the words of the lines mean, from the course's glossary (lesson 00 teaches them).
  std::string said;
  for (const auto& line : p.facts) said += line + "\n";
  for (const auto& line : p.stalls) said += line + "\n";
  if (const std::string notes = glossary_notes(said, course_glossary()); !notes.empty())
    p.facts_tip += "\n\n" + notes;
  for (CounterRow& row : p.rows)
    if (const std::string notes = glossary_notes(row.what, course_glossary()); !notes.empty())
      row.tip += "\n\n" + notes;
  return p;
}

CounterPanel no_counters_panel(const Trace& t, const std::vector<ProfileFile>& profiles) {
  ProfiledCall named;
  named.lesson = t.lesson;
  named.slug = t.slug;
  named.variant = t.variant;
  std::string devices;
  for (const ProfileFile& f : profiles)
    if (devices.find(f.device) == std::string::npos)
      devices += (devices.empty() ? "" : ", ") + f.device;
  CounterPanel p;
  p.title.push_back("No hardware counters of " + lesson_name(named));
  p.title.push_back(std::string("in the profile") + (profiles.size() == 1 ? "" : "s") +
                    " loaded (" + devices + ")");
  return p;
}

std::vector<std::vector<std::string>> point_counter_text(const ProfileFile& f,
                                                         const ProfiledCall& call, double point_n) {
  std::vector<std::vector<std::string>> out;
  out.push_back({measured_on(f), lesson_name(call) + " at n = " + format_size(call.n) + ", block " +
                                     std::to_string(call.block)});
  if (call.n != point_n)
    out.back().push_back("the profiled size nearest this point's " + format_size(point_n));
  for (const ProfiledLaunch& l : call.launches) {
    std::string which = "launch " + std::to_string(l.launch) + ": " + short_name(l.kernel);
    if (l.grid > 0) which += ", grid " + grouped(static_cast<double>(l.grid));
    out.push_back({which});
    for (std::string& phrase : launch_phrases(l, false, true))
      out.back().push_back(std::move(phrase));
  }
  return out;
}

}  // namespace rl::viewer
