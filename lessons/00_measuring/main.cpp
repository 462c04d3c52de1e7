// Lesson 00's executable: the two yardsticks every later lesson is measured against, at one N.
// Read in this order:
//   common/backends/gpu/streaming_ceiling.cuh   the ceiling: the fastest this GPU reads N floats
//   main.cpp                                    this file: times it and CUB's sum on one input
//   common/host/session.cpp                     how every time in the course is taken
//   questions.cpp                               the exercise's questions (--check-answers), each
//                                               answer derived from the committed H100 runs
// On the simulator, which times no GPU, it prints what the course's GPU measured at this N
// (assets/results/h100-bench.json), with that GPU's name and the date.
#include <cstdint>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/harness.h"
#include "common/host/session.h"
#include "common/host/table.h"
#include "common/runner/sim_counts.h"
#include "lessons/00_measuring/questions.h"

namespace {

using namespace rl;

constexpr std::uint64_t default_n = std::uint64_t{1} << 28;

// The floor of any reduction of n floats: its 4n bytes read once, at `gbps`, in microseconds.
double floor_us(std::uint64_t n, double gbps) { return 4.0 * static_cast<double>(n) / gbps / 1e3; }

// The table every lesson's "% of ceiling" and "x CUB" columns come from, then the floor in words.
void print_yardsticks(std::ostream& out, std::uint64_t n, double ceiling_ms, double ceiling_gbps,
                      double cub_ms, double theoretical_gbps) {
  Table t({"what", "time", "GB/s", "% of ceiling", "x CUB"});
  const double cub_gbps = 4.0 * static_cast<double>(n) / (cub_ms * 1e6);
  t.add({"streaming read (the ceiling)", duration(ceiling_ms), fixed(ceiling_gbps, 0), "100.0",
         cub_ms > 0 ? fixed(cub_ms / ceiling_ms, 2) : "-"});
  if (cub_ms > 0)
    t.add({"cub::DeviceReduce::Sum", duration(cub_ms), fixed(cub_gbps, 0),
           fixed(100.0 * cub_gbps / ceiling_gbps, 1), "1.00"});
  t.print(out);
  out << "\nthe floor: " << n << " floats are "
      << general(4.0 * static_cast<double>(n) / (1 << 20), 4)
      << " MiB, read once: at the ceiling's " << fixed(ceiling_gbps, 0) << " GB/s that is "
      << general(floor_us(n, ceiling_gbps), 4) << " us";
  if (theoretical_gbps > 0)
    out << "; at the memory's " << fixed(theoretical_gbps, 0)
        << " GB/s (memory clock x bus width x 2) it would be "
        << general(floor_us(n, theoretical_gbps), 4) << " us: the ceiling reaches "
        << fixed(100.0 * ceiling_gbps / theoretical_gbps, 1) << "% of it";
  out << '\n';
}

int measure(const RunOptions& o) {
  auto device = open_device(o, std::cout);
  const std::uint64_t n = o.n_given ? o.n : default_n;
  if (device->backend() == Backend::sim) {
    // The simulator runs kernels one thread after another on this CPU: it has no memory system to
    // time. What it can show is what a real GPU measured, labelled as such.
    std::string why;
    const auto measured = MeasuredLadder::load(measured_ladder_path(), why);
    if (!measured) throw UsageError("no GPU figures to show on the simulator: " + why);
    const auto y = measured->yardsticks(n);
    if (!y)
      throw UsageError("--n " + std::to_string(n) + ": " + measured->path +
                       " has the yardsticks at powers of two only (2^10 to 2^28 on the H100)");
    std::cout << "the simulator times no GPU: these are the figures " << measured->device
              << " measured on " << measured->date << " (" << measured->path << ")\n\n";
    print_yardsticks(std::cout, n, y->ceiling_ms, y->ceiling_gbps, y->cub_ms, y->theoretical_gbps);
    return exit_ok;
  }
  Session session(*device, o);
  session.check_fits(n);
  session.prepare(n);
  const Baseline& b = session.baseline();
  if (!b.ceiling) throw std::runtime_error("this device has no streaming-read ceiling kernel");
  std::cout << "N = " << n << " floats, median of " << session.sampling().samples
            << " samples, each call on its own copy of the input (read from DRAM, not L2)\n\n";
  const double theoretical = device->describe().value("theoretical_gbps", 0.0);
  print_yardsticks(std::cout, n, b.ceiling->read.ms.median, b.ceiling->read_gbps,
                   b.cub ? b.cub->ms.median : 0.0, theoretical);
  if (b.cub_check && !b.cub_check->verified) {
    std::cout << "CUB's total " << b.cub_check->got << " is NOT the reference's\n";
    return exit_failed;
  }
  return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  return guarded([&] {
    CLI::App app("Lesson 00: the streaming-read ceiling and CUB's sum, the course's two yardsticks",
                 "00_measuring");
    RunOptionSet set{opt_n | opt_reps | opt_seed | opt_backend | opt_answers};
    set.n_help =
        "number of float32 elements: 1000, 2^24 or 2^24+3 (default 2^28; simulated: a "
        "power of two from 2^10 to 2^28, which the course's GPU measured)";
    RunOptionParser parser(app, set);
    if (!parse_command_line(app, argc, argv)) return exit_ok;
    const RunOptions o = parser.resolve();
    // The answers come from committed files: checking them opens no device.
    if (!o.check_answers.empty())
      return check_answers(std::cout, o.check_answers, cost_bounds::questions());
    validate(o);
    return measure(o);
  });
}
