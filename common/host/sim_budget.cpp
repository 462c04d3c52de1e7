#include "common/host/sim_budget.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <vector>

#include "common/host/device.h"
#include "common/sim/options.h"

namespace rl {

SimCost measure_sim_cost(const std::function<void(std::uint64_t elements)>& run) {
  // The measurement is the estimate's work, not the run that was asked for: it reports no progress
  // (on a busy machine it would print "still running" lines before the one-line refusal).
  struct Quiet {
    sim::Options saved = sim::options();
    Quiet() {
      sim::Options o = saved;
      o.progress_every_s = 0;
      sim::set_options(o);
    }
    ~Quiet() { sim::set_options(saved); }
  } quiet;
  constexpr std::uint64_t small = std::uint64_t{1} << 15, large = std::uint64_t{1} << 17;
  const auto seconds = [&](std::uint64_t e) {
    const auto t0 = std::chrono::steady_clock::now();
    run(e);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  run(small);  // untimed: the first launch also sets up host threads and fiber stacks
  const double t_small = seconds(small), t_large = seconds(large);
  SimCost c;
  c.per_element_s = std::max((t_large - t_small) / static_cast<double>(large - small),
                             t_large / static_cast<double>(large) / 4);
  c.fixed_s = std::max(0.0, t_small - c.per_element_s * static_cast<double>(small));
  return c;
}

double one_run_seconds(const SimCost& small, std::uint64_t elements,
                       const std::function<void()>& run_whole) {
  const double guess = small.fixed_s + small.per_element_s * static_cast<double>(elements);
  if (guess > 3) return guess;
  const auto t0 = std::chrono::steady_clock::now();
  run_whole();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

SimCost plan_cost(Device& device, const Plan& plan, unsigned block) {
  constexpr std::uint64_t most = std::uint64_t{1} << 17;
  const DeviceShape shape = device.shape();
  const std::vector<float> ones(most, 1.0f);
  DeviceBuffer in(device, most * sizeof(float)), out(device, sizeof(float));
  DeviceBuffer scratch(device, plan.scratch_bytes(most, block, shape));
  device.upload(in.get(), ones.data(), most * sizeof(float));
  return measure_sim_cost([&](std::uint64_t elements) {
    plan.reduce({in.get<float>(), out.get<float>(), elements, block, scratch.get(), shape,
                 device.stream()});
    device.synchronize();
  });
}

void SimEstimate::add(const SimCost& cost, std::uint64_t elements, std::uint64_t runs) {
  seconds_ += static_cast<double>(runs) *
              (cost.fixed_s + cost.per_element_s * static_cast<double>(elements));
}

std::string rough_duration(double s) {
  char buf[32];
  if (s < 90)
    std::snprintf(buf, sizeof buf, "%.0f s", std::max(1.0, s));
  else if (s < 10 * 60)
    std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
  else if (s < 90 * 60)
    std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 48 * 3600)
    std::snprintf(buf, sizeof buf, "%.1f hours", s / 3600);
  else
    std::snprintf(buf, sizeof buf, "%.0f days", s / 86400);
  return buf;
}

std::string kernel_runs_text(std::uint64_t runs) {
  return std::to_string(runs) + (runs == 1 ? " kernel run" : " kernel runs");
}

std::string size_text(std::uint64_t n) {
  if (n >= 1024 && std::has_single_bit(n)) return "2^" + std::to_string(std::countr_zero(n));
  return std::to_string(n);
}

void check_sim_estimate(const SimEstimate& e, const std::string& what, const RunOptions& o,
                        std::ostream& out) {
  const std::string estimate =
      "about " + rough_duration(e.seconds()) + " for " + what + " (cost measured just now)";
  if (e.seconds() > sim_time_limit_s && !o.sim_no_limit)
    throw UsageError(
        "the simulator would take " + estimate + ", over its limit of " +
        rough_duration(sim_time_limit_s) +
        ": a smaller size, --check-only or a GPU runs it; --sim-no-limit lifts the limit");
  if (e.seconds() > sim_say_estimate_s) out << "simulator: " << estimate << '\n' << std::flush;
}

}  // namespace rl
