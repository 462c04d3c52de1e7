#pragma once
// What the viewer says about a kernel's hardware counters: beside a trace, the trace's own
// prediction next to the counter that counts the same thing (the passes its shared-memory accesses
// need, bank conflicts included; the lanes that work per warp instruction); for a throughput point,
// one line per launch (time, DRAM % of peak, occupancy and its limiter, the top stall). Pure: no
// ImGui, unit-tested.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/trace/trace_model.h"
#include "viewer/profile_model.h"
#include "viewer/steps.h"

namespace rl::viewer {

// What one launch of a trace says about what the hardware counts, over all its blocks.
struct LaunchPrediction {
  // Warp-wide accesses to shared memory (one per warp, instruction and operand, with at least one
  // lane), and the passes they need: an access whose lanes fall n-way in one bank needs n.
  std::int64_t load_accesses = 0, load_passes = 0;
  std::int64_t store_accesses = 0, store_passes = 0;
  // Lanes working, and warps working, summed over the launch's steps.
  std::int64_t lanes = 0, warps = 0;
};

// One per launch of the trace, summed over its steps (steps.h): a step is one instruction run by
// every thread, as the hardware counts its warps' accesses.
std::vector<LaunchPrediction> predict_launches(const Trace& t, const StepIndex& steps);

// The counted passes per warp access: wavefronts / (wavefronts - bank conflicts), the wavefronts
// being requests x wavefronts per request; < 0 when the counters are missing or count no access.
double counted_passes(const std::optional<double>& requests,
                      const std::optional<double>& wavefronts_per_request,
                      const std::optional<double>& bank_conflicts);

struct CounterRow {
  std::string what;     // "shared loads: passes per warp access"
  std::string trace;    // "3.80"; "-" where the trace has none
  std::string counted;  // "3.86"; "-" where the counters do not say
  std::string tip;      // how each side was computed, the metrics named
};

// The panel beside a trace: a title, the table of predictions against counters, then the
// counters the trace cannot predict, as phrases.
struct CounterPanel {
  std::vector<std::string> title;  // phrases: "Measured on NVIDIA H100 80GB HBM3 by ncu ..."
  std::string caveat;              // where the trace's run is not the profiled one; "" if same
  std::string trace_heading = "this trace";
  std::string counted_heading = "counted";
  std::vector<CounterRow> rows;
  std::vector<std::string> facts;   // "10.85 us", "DRAM 11.6% of peak (4.20 MB read)", ...
  std::vector<std::string> stalls;  // "top stalls (warps waiting per issue): barrier 3.16", ...
  std::string facts_tip;            // the metrics of those facts
};

// The panel for launch `launch` of the trace (the call's launch of that index, else its last).
CounterPanel counter_panel(const ProfileFile& file, const ProfiledCall& call, int launch,
                           const Trace& t, const LaunchPrediction& predicted);

// The panel of a trace whose kernel no profile loaded has: one line saying so.
CounterPanel no_counters_panel(const Trace& t, const std::vector<ProfileFile>& profiles);

// For a throughput point at n, as paragraphs of phrases: the title (where, what, at which n), then
// one paragraph per launch of the call.
std::vector<std::vector<std::string>> point_counter_text(const ProfileFile& file,
                                                         const ProfiledCall& call, double point_n);

// "10.85 us", "DRAM 11.6% of peak (4.20 MB read)", "occupancy 84.1% (theoretical 100%)", "limited
// by warps: 8 blocks/SM", then with `registers` "16 registers/thread", and with `top_stall` "top
// stall: short scoreboard (5.87 warps waiting per issue)": what is known of a launch.
std::vector<std::string> launch_phrases(const ProfiledLaunch& l, bool registers, bool top_stall);

// "top stalls (warps waiting per issue): short scoreboard 5.87", "long scoreboard 4.05", ...
std::vector<std::string> stall_phrases(const KernelCounters& c);

}  // namespace rl::viewer
