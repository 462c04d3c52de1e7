#pragma once
// How long a run on the simulator will take, estimated before it starts from a cost measured on
// this machine just then, and the refusal of a run it cannot finish in reasonable time. The
// simulator runs a few million elements a second (common/sim/README.md, "In the course"), so a size that
// a GPU reduces in a millisecond can take it hours; the estimate says so in one line, before any
// memory is taken.
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "common/host/cli.h"
#include "common/host/plan.h"

namespace rl {

class Device;

// A simulated run estimated to take longer than this is refused, unless --sim-no-limit.
inline constexpr double sim_time_limit_s = 600;
// An estimate longer than this is said in one line before the run starts.
inline constexpr double sim_say_estimate_s = 10;
// Runs smaller than this many elements in all are not measured: at the simulator's slowest (about
// 0.6 us an element, lessons 01-03 at block 256 on a 2-core machine) they take a few seconds.
inline constexpr std::uint64_t sim_measure_above = std::uint64_t{1} << 22;

// One kernel run's cost on the simulator: seconds = fixed_s + per_element_s x elements.
struct SimCost {
  double fixed_s = 0;
  double per_element_s = 0;
};

// Times run(2^15) and run(2^17) once each, after an untimed run(2^15), and fits the line through
// them (the slope at least a quarter of the mean cost at 2^17, so noise cannot make large sizes
// look free).
SimCost measure_sim_cost(const std::function<void(std::uint64_t elements)>& run);

// The seconds of one run over `elements`, where a plan depends on more than the size (lessons
// 18-20: the shape): the cost measured on small inputs, and where that says one run takes less than
// a few seconds, `run_whole()` timed once instead (the small inputs may have chosen another plan).
double one_run_seconds(const SimCost& small, std::uint64_t elements,
                       const std::function<void()>& run_whole);

// The cost of one run of a lessons 01-16 plan at block `block`, measured on `device` (the
// simulator).
SimCost plan_cost(Device& device, const Plan& plan, unsigned block);

// The sum of a run's kernel runs, each at its measured cost.
class SimEstimate {
 public:
  void add(const SimCost& cost, std::uint64_t elements, std::uint64_t runs);
  double seconds() const { return seconds_; }

 private:
  double seconds_ = 0;
};

// "45 s", "2.5 min", "3.1 hours".
std::string rough_duration(double seconds);

// After the estimate of `what` ("14 runs of lesson 03's kernel over 2^24 elements"): a UsageError
// of one line when it is over sim_time_limit_s and --sim-no-limit was not given; else, when it is
// over sim_say_estimate_s, one line on `out` with the estimate.
void check_sim_estimate(const SimEstimate& e, const std::string& what, const RunOptions& o,
                        std::ostream& out);

// "1 kernel run", "35 kernel runs".
std::string kernel_runs_text(std::uint64_t runs);

// "2^24" for a power of two from 2^10, else the number.
std::string size_text(std::uint64_t n);

}  // namespace rl
