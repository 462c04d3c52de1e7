#pragma once
// Hardware counters of the lessons' kernels (schema `reducelab.profile` v1, written by `reducelab
// profile` from Nsight Compute): per call of a lesson's kernel (lesson, variant, n, block), each of
// its launches with what ncu counted. Lookups find the call nearest a trace's or a point's n and
// block. No ImGui here.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/results_model.h"  // ResultsError

namespace rl::viewer {

struct Stall {
  std::string reason;      // "short_scoreboard"
  double warps_per_issue;  // warps stalled for this reason per instruction issued
};

// What ncu counted for one launch. Each figure is absent when the file does not give it.
struct KernelCounters {
  std::optional<double> duration_us, dram_pct_of_peak, dram_bytes_read;
  std::optional<double> achieved_occupancy_pct, theoretical_occupancy_pct;
  std::string occupancy_limiter;  // "warps", "registers", "shared_mem", "blocks"
  std::map<std::string, double> blocks_per_sm_limit;  // limiter -> blocks per SM it allows
  std::optional<double> registers_per_thread;
  std::optional<double> shared_ld_requests, shared_st_requests;  // warp instructions
  std::optional<double> shared_ld_bank_conflicts, shared_st_bank_conflicts;
  std::optional<double> shared_ld_wavefronts_per_request, shared_st_wavefronts_per_request;
  std::optional<double> threads_per_instruction, instructions;
  std::vector<Stall> top_stalls;  // the worst first
};

struct ProfiledLaunch {
  int launch = 0;      // 0, 1, ... within the call
  std::string kernel;  // "sequential_addressing<NoTrace>"
  long long grid = 0;  // 0: not given
  int block_threads = 0;
  KernelCounters counters;
};

// One call of a lesson's kernel: its launches, in launch order.
struct ProfiledCall {
  int lesson = 0;
  std::string slug, variant;  // variant "" for the lesson's own kernel
  double n = 0;
  int block = 0;
  std::vector<ProfiledLaunch> launches;
};

struct ProfileFile {
  std::string path, tool, created_utc;
  std::string device;  // the device's name, as a results record's device.name
  std::map<std::string, std::string> metrics;  // counter -> the ncu metric it was read from
  std::vector<ProfiledCall> calls;             // in the order of their first kernel in the file
};

// One-line ResultsError on a wrong schema or version, a missing or mistyped field, or a launch
// listed twice.
ProfileFile parse_profile(std::string_view text, const std::string& name);
ProfileFile load_profile(const std::string& path);

// Whether a file's text names the profile schema (without parsing it).
bool looks_like_profile(std::string_view text);

// The call of (lesson, variant) nearest (n, block): the nearest block first (on a log scale: the
// per-access figures depend on it), then the nearest n; null when the file has no call of it.
const ProfiledCall* nearest_call(const ProfileFile& file, int lesson, const std::string& variant,
                                 double n, int block);

// The first of `files` with a call of (lesson, variant) on `device` ("" for any device), and that
// call; {nullptr, nullptr} when none has.
struct ProfileMatch {
  const ProfileFile* file = nullptr;
  const ProfiledCall* call = nullptr;
};
ProfileMatch find_profiled(const std::vector<ProfileFile>& files, const std::string& device,
                           int lesson, const std::string& variant, double n, int block);

}  // namespace rl::viewer
