#include "common/runner/ladder.h"

#include "common/host/course.h"
#include "common/host/table.h"

#include <optional>
#include <string>

namespace rl {

std::vector<CaseResult> run_ladder(Session& session, unsigned block, bool block_given,
                                   bool time_it) {
  std::vector<CaseResult> results;
  for (const auto& r : ladder_plans())
    if (r.backend == session.device().backend())
      results.push_back(session.run(r, block_for(r, block, block_given), time_it));
  return results;
}

void print_ladder_table(std::ostream& out, const std::vector<CaseResult>& results,
                        const Baseline* baseline) {
  const bool simulated =
      !results.empty() && results.front().timing && results.front().timing->simulated;
  const bool gpu_figures = baseline && !simulated;
  Table t({"lesson", "kernel", "block", "launch", simulated ? "time (simulated)" : "time",
           "device time", "GB/s", "% of ceiling", "x lesson 01", "x CUB", "verified"});
  double first_ms = 0.0;
  for (const auto& r : results)
    if (r.plan.lesson == 1 && r.plan.variant.empty() && r.timing) first_ms = r.timing->ms.median;
  const auto device = [](const std::optional<Summary>& d) {
    return d ? duration(d->median) : std::string("-");
  };
  bool any_bound = false;
  for (const auto& r : results) {
    const std::string name = r.plan.variant.empty()
                                 ? std::string(r.plan.slug)
                                 : std::string(r.plan.slug) + " / " + std::string(r.plan.variant);
    std::vector<std::string> row{std::to_string(r.plan.lesson), name, std::to_string(r.block),
                                 to_string(r.plan.way)};
    if (r.timing) {
      const double ms = r.timing->ms.median;
      const bool bound = launch_bound(*r.timing, r.device_ms);
      any_bound = any_bound || bound;
      row.push_back(duration(ms) + (bound ? " *" : ""));
      row.push_back(device(r.device_ms));
      row.push_back(simulated ? "-" : fixed(r.gbps, 0));
      const auto pct = gpu_figures ? percent_of_ceiling(r, *baseline) : std::nullopt;
      row.push_back(pct ? fixed(*pct, 1) : "-");
      // A simulated speed-up is the CPU's, not the GPU's: no ratio is shown for it.
      row.push_back(first_ms > 0 && !simulated ? fixed(first_ms / ms, 2) : "-");
      const auto x = gpu_figures ? times_cub(r, *baseline) : std::nullopt;
      row.push_back(x ? fixed(*x, 2) : "-");
    } else {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-"});
    }
    row.push_back(r.check.verified ? "yes" : "NO");
    t.add(row);
  }
  if (gpu_figures) {
    std::vector<const Device::Ceiling*> ceilings;
    if (baseline->ceiling) ceilings.push_back(&*baseline->ceiling);
    for (const auto& c : baseline->ceilings) ceilings.push_back(&c);
    for (const Device::Ceiling* ceiling : ceilings) {
      const Device::Ceiling& c = *ceiling;
      const double ms = c.read.ms.median;
      const bool bound = launch_bound(c.read, c.device_ms);
      any_bound = any_bound || bound;
      const Timing* cub = baseline->cub_for(c.read.way.launch);
      // Below 100 where a rung launched this way read faster than the kernel (Baseline::fastest).
      const double pct = 100.0 * baseline->ceiling_ms(c.read.way) / ms;
      t.add({"-", "streaming read (ceiling)", std::to_string(c.read_block), to_string(c.read.way),
             duration(ms) + (bound ? " *" : ""), device(c.device_ms), fixed(c.read_gbps, 0),
             fixed(pct, 1), first_ms > 0 ? fixed(first_ms / ms, 2) : "-",
             cub ? fixed(cub->ms.median / ms, 2) : "-", "-"});
    }
    for (const Timing* cub :
         {baseline->cub_for(LaunchPath::stream), baseline->cub_for(LaunchPath::graph)}) {
      if (!cub) continue;
      const double ms = cub->ms.median;
      const auto* ceiling = baseline->ceiling_for(cub->way);
      // CUB's device time is measured in calls on the stream only.
      const std::optional<Summary> dev =
          cub->way.launch == LaunchPath::stream ? baseline->cub_device_ms : std::nullopt;
      const bool bound = launch_bound(*cub, dev);
      any_bound = any_bound || bound;
      t.add({"-", "cub::DeviceReduce::Sum", "-", to_string(cub->way),
             duration(ms) + (bound ? " *" : ""), device(dev),
             fixed(gigabytes_per_second(baseline->n, ms), 0),
             ceiling ? fixed(100.0 * baseline->ceiling_ms(cub->way) / ms, 1) : "-",
             first_ms > 0 ? fixed(first_ms / ms, 2) : "-", "1.00",
             baseline->cub_check && baseline->cub_check->verified ? "yes" : "NO"});
    }
  }
  t.print(out);
  if (any_bound)
    out << "* launch-bound: the GPU ran this call's kernels for under 80% of its time (device "
           "time, CUPTI); the host's launches set the pace (lesson 15)\n";
  if (gpu_figures)
    for (const FastestRead& f : baseline->fastest)
      out << "ceiling launched " << to_string(f.way) << ": " << f.by
          << " read faster than the read-only kernel (" << duration(f.ms)
          << "), so its time is the ceiling\n";
}

}  // namespace rl
