// Lesson 11's report, after its plans have run: the latency of one load (a pointer chase), the
// bytes in flight Little's law asks for at the measured ceiling, what lessons 07, 08, 12 and this
// lesson's kernels keep in flight (their registers and resident blocks from the occupancy API,
// their speed timed by the harness in the same session), and the roofline. And the exercise's speed
// target.
#include "lessons/11_latency_and_roofline/report.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/grade_main.h"
#include "common/host/input.h"
#include "common/host/launch_observer.h"
#include "common/host/reference.h"
#include "common/host/results.h"
#include "common/host/session.h"
#include "common/host/table.h"
#include "lessons/11_latency_and_roofline/chase.h"

namespace rl::latency {
namespace {

// A chase's launch on the backend the device is.
void launch_on(Backend b, const unsigned* next, unsigned* at, std::uint64_t hops,
               unsigned long long* visited, void* stream) {
  if (b == Backend::sim) {
    launch_chase<Backend::sim>(next, at, hops, visited, stream);
  } else {
    if constexpr (gpu_backend_built) launch_chase<Backend::gpu>(next, at, hops, visited, stream);
  }
}

// The lines of the chase that misses L2: at least 256 MiB and four times the L2, so that a line is
// long evicted when the chain comes back to it. And of the one that stays in L2: a quarter of it,
// at most 4 MiB (far more than an SM's L1, which __ldcg skips anyway).
std::uint64_t dram_lines(const DeviceShape& s) {
  return std::max<std::uint64_t>(std::uint64_t{256} << 20, 4 * s.l2_bytes) / chase_line_bytes;
}
std::uint64_t l2_lines(const DeviceShape& s) {
  return std::min<std::uint64_t>(std::uint64_t{4} << 20, s.l2_bytes / 4) / chase_line_bytes;
}
// Lines of the simulator's chase: a lap of one thread takes a moment there.
constexpr std::uint64_t simulated_lines = 4096;
// Steps of one timed call: tens of milliseconds from DRAM, so a call is far longer than a launch.
constexpr std::uint64_t timed_hops = std::uint64_t{1} << 16;

// The grid of the first launch a plan makes (common/host/launch_observer.h), from one checked run.
unsigned first_grid(Session& session, const Plan& p, unsigned block, CaseResult* checked) {
  unsigned grid = 0;
  set_launch_observer([&](const LaunchShape& l) {
    if (grid == 0) grid = l.grid;
  });
  struct Reset {
    ~Reset() { set_launch_observer({}); }
  } reset;
  *checked = session.run(p, block, false);
  return grid;
}

std::string kibibytes(double bytes) { return general(bytes / 1024.0, 4) + " KiB"; }

std::string kernel_name(const Plan& p) {
  return p.variant.empty() ? std::string(p.slug)
                           : std::string(p.slug) + " / " + std::string(p.variant);
}

// One rung of the table: a plan, what an SM holds of it, and how fast it ran.
struct Rung {
  const Plan* plan = nullptr;
  unsigned block = 0;
  unsigned grid = 0;
  KernelResources resources;
  std::uint64_t threads_per_sm = 0;
  double in_flight_per_sm = 0.0;
  CaseResult result;
};

Rung rung(Session& session, const Plan& p, unsigned block, const CaseResult* timed) {
  Rung r;
  r.plan = &p;
  r.block = block;
  CaseResult checked;
  r.grid = first_grid(session, p, block, &checked);
  if (!checked.check.verified)
    throw std::runtime_error("lesson " + std::to_string(p.lesson) + "'s " + kernel_name(p) +
                             " gave a wrong total in lesson 11's table");
  const DeviceShape s = session.device().shape();
  r.resources = p.resources(block, s);
  r.threads_per_sm = resident_threads_per_sm(r.resources.blocks_per_sm, block, r.grid, s.sm_count);
  r.in_flight_per_sm = bytes_in_flight(p.loads_in_flight, p.load_bytes, r.threads_per_sm);
  r.result = timed ? *timed : checked;
  return r;
}

// The plans of other lessons the table compares with: their own kernels on this backend.
Plans compared_plans(Backend b) {
  Plans all;
  for (const Plans& some :
       {gpu_and_sim_plans<7>(), gpu_and_sim_plans<8>(), gpu_and_sim_plans<12>()})
    for (const Plan& p : some)
      if (p.backend == b && p.variant.empty()) all.push_back(p);
  return all;
}

void report(Session& session, const std::vector<CaseResult>& runs, const Baseline* baseline,
            std::ostream& out, nlohmann::json& record) {
  Device& device = session.device();
  const DeviceShape s = device.shape();
  const bool gpu = device.backend() == Backend::gpu;
  const bool timed = gpu && baseline && baseline->ceiling;
  out << "\nlesson 11's report, at N = " << session.n() << " floats\n";

  // 1. The latency of one load.
  record["chase"] = nlohmann::json::array();
  double dram_ns = 0.0;
  if (!gpu) {
    const Chase c = run_chase(device, simulated_lines, 0, session.sampling());
    out << "pointer chase (simulated): one thread walked a cycle through " << c.lines
        << " lines of " << chase_line_bytes << " bytes "
        << (c.visited_all ? "and came back to its start having visited every line"
                          : "and did NOT visit every line")
        << "; the simulator measures no latency\n";
    record["chase"].push_back({{"memory", "simulated"},
                               {"lines", c.lines},
                               {"line_bytes", chase_line_bytes},
                               {"visited_all", c.visited_all}});
    if (!c.visited_all) throw std::runtime_error("the pointer chase did not visit its whole cycle");
  } else {
    out << "pointer chase: one thread, each load's address the value the load before it returned";
    if (baseline)
      out << ", " << timed_hops << " steps a call (median of " << session.sampling().samples
          << " samples)";
    out << ":\n";
    for (const auto& [memory, lines] :
         {std::pair{"dram", dram_lines(s)}, std::pair{"l2", l2_lines(s)}}) {
      const Chase c = run_chase(device, lines, baseline ? timed_hops : 0, session.sampling());
      if (!c.visited_all)
        throw std::runtime_error("the pointer chase did not visit its whole cycle");
      const double bytes = static_cast<double>(lines) * chase_line_bytes;
      out << "  " << (std::string(memory) == "dram" ? "DRAM" : "L2  ") << ": a cycle through "
          << general(bytes / (1 << 20), 4) << " MiB (" << lines << " lines, "
          << fixed(bytes / static_cast<double>(s.l2_bytes), 2) << "x the L2), every line visited";
      nlohmann::json j{{"memory", memory},
                       {"lines", lines},
                       {"line_bytes", chase_line_bytes},
                       {"footprint_bytes", bytes},
                       {"visited_all", c.visited_all}};
      if (c.timed_hops) {
        out << ": " << fixed(c.ns_per_load, 1) << " ns a load";
        j["hops_per_call"] = c.timed_hops;
        j["time"] = to_json(c.timing);
        j["ns_per_load"] = c.ns_per_load;
        if (std::string(memory) == "dram") dram_ns = c.ns_per_load;
      }
      out << '\n';
      record["chase"].push_back(j);
    }
  }

  // 2. Little's law: the bytes the GPU must keep in flight to stream at its ceiling.
  const bool measured = timed && dram_ns > 0;
  const double gbps = measured ? baseline->ceiling->read_gbps : simulated_dram.gbps;
  const double latency_ns = measured ? dram_ns : simulated_dram.latency_ns;
  const double needed = bytes_in_flight_needed(gbps, latency_ns);
  const double needed_per_sm = needed / s.sm_count;
  if (gpu && !measured) {
    out << "Little's law needs the ceiling and the chase timed: run without --check-only\n";
  } else {
    out << "Little's law: to stream " << fixed(gbps, 0) << " GB/s ("
        << (measured ? "the streaming ceiling, measured in this run"
                     : "assumed: the simulator measures none")
        << ") with loads taking " << fixed(latency_ns, 1) << " ns ("
        << (measured ? "the DRAM chase" : "assumed") << "), " << general(needed / 1e6, 4)
        << " MB must be in flight: " << kibibytes(needed_per_sm) << " on each of the " << s.sm_count
        << " SMs\n";
    record["littles_law"] = {{"bandwidth_gbps", gbps},
                             {"bandwidth_from", measured ? "streaming ceiling" : "assumed"},
                             {"latency_ns", latency_ns},
                             {"latency_from", measured ? "pointer chase, dram" : "assumed"},
                             {"bytes_in_flight_needed", needed},
                             {"sm_count", s.sm_count},
                             {"bytes_in_flight_needed_per_sm", needed_per_sm}};
  }

  // 3. What each rung keeps in flight, against that need, and how fast it ran.
  const RunOptions& o = session.options();
  std::vector<Rung> rungs;
  const Plans others = compared_plans(device.backend());
  for (const Plan& p : others) {
    const unsigned block = block_for(p, o.block, o.block_given);
    std::optional<CaseResult> t;
    if (timed) t = session.run(p, block, true);
    rungs.push_back(rung(session, p, block, t ? &*t : nullptr));
  }
  for (const CaseResult& r : runs) rungs.push_back(rung(session, r.plan, r.block, &r));
  Table table({"lesson", "kernel", "loads a thread (source)", "bytes a load", "registers",
               "blocks/SM", "threads/SM", "in flight/SM", "% of need", "GB/s", "% of ceiling"});
  record["rungs"] = nlohmann::json::array();
  for (const Rung& r : rungs) {
    const Plan& p = *r.plan;
    const bool shown = !(gpu && !measured);
    const double pct_need = 100.0 * r.in_flight_per_sm / needed_per_sm;
    const bool has_speed = timed && r.result.timing && !r.result.timing->simulated;
    const double pct_ceiling = has_speed ? 100.0 * r.result.gbps / baseline->ceiling->read_gbps : 0;
    table.add({std::to_string(p.lesson), kernel_name(p), std::to_string(p.loads_in_flight),
               std::to_string(p.load_bytes),
               r.resources.registers ? std::to_string(r.resources.registers) : "-",
               std::to_string(r.resources.blocks_per_sm), std::to_string(r.threads_per_sm),
               kibibytes(r.in_flight_per_sm), shown ? fixed(pct_need, 0) : "-",
               has_speed ? fixed(r.result.gbps, 0) : "-", has_speed ? fixed(pct_ceiling, 1) : "-"});
    nlohmann::json j{{"lesson", p.lesson},
                     {"slug", p.slug},
                     {"variant", p.variant},
                     {"block", r.block},
                     {"grid", r.grid},
                     {"loads_in_flight", p.loads_in_flight},
                     {"load_bytes", p.load_bytes},
                     {"blocks_per_sm", r.resources.blocks_per_sm},
                     {"resident_threads_per_sm", r.threads_per_sm},
                     {"bytes_in_flight_per_sm", r.in_flight_per_sm}};
    if (r.resources.registers) j["registers"] = r.resources.registers;
    if (shown) j["pct_of_needed"] = pct_need;
    if (has_speed) {
      j["gbps"] = r.result.gbps;
      j["pct_of_ceiling"] = pct_ceiling;
    }
    record["rungs"].push_back(j);
  }
  out << "\nbytes in flight an SM (loads a thread issues before it waits, as its source reads, x "
         "bytes a load x threads resident), against that need:\n";
  table.print(out);
  if (!gpu)
    out << "(the simulator counts no registers: its blocks/SM are the thread, block and "
           "shared-memory "
           "limits of the H100 it pretends to be)\n";

  // 4. The roofline: the sum's 0.25 FLOP a byte against the machine's two roofs.
  if (!timed) return;
  const nlohmann::json d = device.describe();
  const double spec = d.value("theoretical_gbps", 0.0);
  const double ceiling = baseline->ceiling->read_gbps;
  nlohmann::json roof{{"intensity_flop_per_byte", sum_intensity},
                      {"spec_peak_gbps", spec},
                      {"ceiling_gbps", ceiling}};
  out << "\nroofline (Williams, Waterman and Patterson 2009): a float32 sum does " << sum_intensity
      << " FLOP a byte read\n  DRAM spec peak (2 transfers a memory clock x bus width): "
      << fixed(spec, 0) << " GB/s; the measured streaming ceiling " << fixed(ceiling, 0)
      << " GB/s is " << fixed(100.0 * ceiling / spec, 1) << "% of it\n";
  const std::string cc = d.value("compute_capability", "");
  const auto dot = cc.find('.');
  const unsigned adds =
      dot == std::string::npos
          ? 0
          : fp32_adds_per_clock(std::stoi(cc.substr(0, dot)), std::stoi(cc.substr(dot + 1)));
  if (adds) {
    const double peak = s.sm_count * adds * d.value("sm_clock_mhz", 0.0) / 1000.0;
    const double ridge = ridge_intensity(peak, spec);
    out << "  FP32 add peak: " << s.sm_count << " SMs x " << adds << " a clock x "
        << d.value("sm_clock_mhz", 0) << " MHz = " << fixed(peak, 0)
        << " GFLOP/s; the roofs meet at " << fixed(ridge, 1) << " FLOP a byte, "
        << fixed(ridge / sum_intensity, 0) << "x the sum's: it is bound by memory, at most "
        << fixed(roofline_gflops(peak, sum_intensity, spec), 0) << " GFLOP/s\n";
    roof["fp32_add_peak_gflops"] = peak;
    roof["ridge_flop_per_byte"] = ridge;
  }
  Table speeds({"lesson", "kernel", "GB/s", "% of spec peak", "% of ceiling", "GFLOP/s"});
  for (const Rung& r : rungs) {
    if (!r.result.timing || r.result.timing->simulated) continue;
    speeds.add({std::to_string(r.plan->lesson), kernel_name(*r.plan), fixed(r.result.gbps, 0),
                fixed(100.0 * r.result.gbps / spec, 1), fixed(100.0 * r.result.gbps / ceiling, 1),
                fixed(sum_intensity * r.result.gbps, 0)});
  }
  speeds.print(out);
  record["roofline"] = roof;
}

// The plan the exercise asks for, on the device's backend: the variant whose idea its grade checks
// (load_ahead), the one the speed target times.
const Plan& graded_plan(Backend backend) {
  static const Plans mine = gpu_and_sim_plans<11>();
  const auto graded = std::find_if(mine.begin(), mine.end(), [&](const Plan& p) {
    return p.backend == backend && p.idea.loads_ahead > 0;
  });
  if (graded == mine.end()) throw std::runtime_error("lesson 11 has no exercise's variant here");
  return *graded;
}

// --grade's target, once every correctness case has passed: the figures it is judged from (see
// judge_target), "loads L bytes B block K blocks_per_sm P registers R", and on a GPU "gbps G
// ceiling_gbps C total BITS" after them.
std::string target(Device& device, const RunOptions& options,
                   const std::function<void(const std::string&)>& progress) {
  const Plan& graded = graded_plan(device.backend());
  const unsigned block = block_for(graded, options.block, options.block_given);
  const KernelResources k = graded.resources(block, device.shape());
  std::ostringstream figures;
  figures << "loads " << graded.loads_in_flight << " bytes " << graded.load_bytes << " block "
          << block << " blocks_per_sm " << k.blocks_per_sm << " registers " << k.registers;
  if (device.backend() == Backend::sim) {
    progress("the bytes in flight of the kernel's loads, by Little's law");
    return figures.str();
  }
  progress("speed at n=2^26 block=" + std::to_string(block));
  RunOptions o = options;
  o.seed = graded_seed(1, options.grade_seed);
  o.distribution = Distribution::uniform;
  Session session(device, o);
  session.prepare(target_n);
  const Baseline& b = session.baseline();
  const CaseResult r = session.run(graded, block, true);
  char bits[16];
  std::snprintf(bits, sizeof bits, "%08x",
                std::bit_cast<std::uint32_t>(static_cast<float>(r.check.got)));
  figures << " gbps " << std::setprecision(9) << r.gbps << " ceiling_gbps " << b.ceiling->read_gbps
          << " total " << bits;
  return figures.str();
}

// The trusted side: why the figures miss the target, or nullopt. On the simulator Little's law
// decides from the loads in flight; on a GPU the speed against the ceiling, once the total for that
// run's input (drawn again here) is right.
std::optional<std::string> judge_target(const std::string& figures, Device& device,
                                        const RunOptions& options) {
  std::map<std::string, std::string> f;
  std::istringstream in(figures);
  for (std::string key, value; in >> key >> value;) f[key] = value;
  const auto number = [&](const char* key) -> std::optional<double> {
    const auto at = f.find(key);
    if (at == f.end()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(at->second.c_str(), &end);
    if (*end != '\0' || !std::isfinite(v) || v < 0) return std::nullopt;
    return v;
  };
  const auto loads = number("loads"), bytes = number("bytes"), block = number("block"),
             per_sm = number("blocks_per_sm"), registers = number("registers");
  const std::string bad =
      "the speed target's figures handed back are not in the grader's format: '" +
      figures.substr(0, 80) + "'";
  if (!loads || !bytes || !block || !per_sm || !registers || *block < 1 || *block > 1024)
    return bad;
  const std::string loads_text = fixed(*loads, 0) + " load" + (*loads == 1 ? "" : "s") + " of " +
                                 fixed(*bytes, 0) + " bytes in flight a thread";
  if (device.backend() == Backend::sim)
    return simulated_target_of(static_cast<unsigned>(*loads), static_cast<unsigned>(*bytes),
                               static_cast<unsigned>(*block), static_cast<unsigned>(*per_sm),
                               device.shape());
  const auto gbps = number("gbps"), ceiling = number("ceiling_gbps");
  const auto total = f.find("total");
  if (!gbps || !ceiling || *ceiling <= 0 || total == f.end() || total->second.size() != 8)
    return bad;
  std::uint32_t bits = 0;
  if (std::sscanf(total->second.c_str(), "%8x", &bits) != 1) return bad;
  std::vector<float> input(target_n);
  fill_run_input(input, graded_seed(1, options.grade_seed), Distribution::uniform);
  const Reference ref = reference_sum(input);
  const std::uint64_t depth =
      graded_plan(Backend::gpu).depth(target_n, static_cast<unsigned>(*block), device.shape());
  if (!within_tolerance(std::bit_cast<float>(bits), ref, depth))
    return "n=2^26: a wrong total (" + general(std::bit_cast<float>(bits), 9) + ", expected " +
           general(ref.sum, 9) + ")";
  const double fraction = *gbps / *ceiling;
  if (fraction >= target_fraction) return std::nullopt;
  return "n=2^26 block=" + fixed(*block, 0) + ": " + fixed(*gbps, 0) + " GB/s, " +
         fixed(100.0 * fraction, 1) + "% of the streaming ceiling (" + fixed(*ceiling, 0) +
         " GB/s); the target is " + fixed(100.0 * target_fraction, 0) + "%. " + loads_text + ", " +
         fixed(*per_sm, 0) + " blocks of " + fixed(*block, 0) + " an SM (" + fixed(*registers, 0) +
         " registers a thread): too few bytes in flight";
}

}  // namespace

std::optional<std::string> simulated_target(const Plan& own, unsigned block, const DeviceShape& s,
                                            const DramModel& dram) {
  const KernelResources k = own.resources(block, s);
  return simulated_target_of(own.loads_in_flight, own.load_bytes, block, k.blocks_per_sm, s, dram);
}

std::optional<std::string> simulated_target_of(unsigned loads, unsigned load_bytes, unsigned block,
                                               unsigned blocks_per_sm, const DeviceShape& s,
                                               const DramModel& dram) {
  const std::uint64_t threads = std::uint64_t{blocks_per_sm} * block;  // a full grid's
  const double in_flight = bytes_in_flight(loads, load_bytes, threads);
  const double needed = bytes_in_flight_needed(dram.gbps, dram.latency_ns) / s.sm_count;
  const double fraction = sustainable_fraction(in_flight, needed);
  if (fraction >= target_fraction) return std::nullopt;
  return std::to_string(loads) + " x " + std::to_string(load_bytes) +
         " bytes in flight a thread x " + std::to_string(threads) +
         " threads an SM = " + kibibytes(in_flight) +
         " an SM; Little's law with the DRAM the simulator assumes (" + fixed(dram.gbps, 0) +
         " GB/s, " + fixed(dram.latency_ns, 0) + " ns) needs " + kibibytes(needed) +
         " an SM to stream at full speed, so at most " + fixed(100.0 * fraction, 1) +
         "% of it; the target is " + fixed(100.0 * target_fraction, 0) + "%";
}

Chase run_chase(Device& device, std::uint64_t lines, std::uint64_t timed_hops,
                const Sampling& sampling) {
  const std::vector<unsigned> next = chase_cycle(lines, chase_line_bytes, 19);
  const std::uint64_t stride = chase_line_bytes / sizeof(unsigned);
  DeviceBuffer chain(device, next.size() * sizeof(unsigned));
  DeviceBuffer at(device, sizeof(unsigned));
  DeviceBuffer visited(device, sizeof(unsigned long long));
  device.upload(chain.get(), next.data(), next.size() * sizeof(unsigned));
  const unsigned start = 0;
  const unsigned long long none = 0;
  device.upload(at.get(), &start, sizeof start);
  device.upload(visited.get(), &none, sizeof none);
  const auto call = [&](std::uint64_t hops) {
    launch_on(device.backend(), chain.get<const unsigned>(), at.get<unsigned>(), hops,
              visited.get<unsigned long long>(), device.stream());
  };
  // One lap: back at the first line, having seen every line's index once.
  call(lines);
  device.synchronize();
  unsigned end = 1;
  unsigned long long sum = 0;
  device.download(&end, at.get(), sizeof end);
  device.download(&sum, visited.get(), sizeof sum);
  Chase c;
  c.lines = lines;
  c.visited_all = end == start && sum == stride * (lines * (lines - 1) / 2);
  if (timed_hops == 0 || device.backend() != Backend::gpu) return c;
  c.timed_hops = timed_hops;
  c.timing = device.time([&](std::size_t) { call(timed_hops); }, 1, sampling);
  c.ns_per_load = c.timing.ms.median * 1e6 / static_cast<double>(timed_hops);
  return c;
}

LessonExtras extras() {
  LessonExtras e;
  e.key = "latency";
  e.report = report;
  e.target = target;
  e.target_judge = judge_target;
  return e;
}

}  // namespace rl::latency
