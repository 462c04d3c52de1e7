#include "common/runner/ladder.h"

#include "common/host/course.h"
#include "common/host/table.h"

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
  Table t({"lesson", "kernel", "block", simulated ? "time (simulated)" : "time", "GB/s",
           "% of ceiling", "x lesson 01", "x CUB", "verified"});
  double first_ms = 0.0;
  for (const auto& r : results)
    if (r.plan.lesson == 1 && r.plan.variant.empty() && r.timing) first_ms = r.timing->ms.median;
  const bool gpu_figures = baseline && !simulated;
  for (const auto& r : results) {
    const std::string name = r.plan.variant.empty()
                                 ? std::string(r.plan.slug)
                                 : std::string(r.plan.slug) + " / " + std::string(r.plan.variant);
    std::vector<std::string> row{std::to_string(r.plan.lesson), name, std::to_string(r.block)};
    if (r.timing) {
      const double ms = r.timing->ms.median;
      row.push_back(duration(ms));
      row.push_back(simulated ? "-" : fixed(r.gbps, 0));
      row.push_back(gpu_figures && baseline->ceiling
                        ? fixed(100.0 * r.gbps / baseline->ceiling->read_gbps, 1)
                        : "-");
      // A simulated speed-up is the CPU's, not the GPU's: no ratio is shown for it.
      row.push_back(first_ms > 0 && !simulated ? fixed(first_ms / ms, 2) : "-");
      row.push_back(gpu_figures && baseline->cub ? fixed(baseline->cub->ms.median / ms, 2) : "-");
    } else {
      row.insert(row.end(), {"-", "-", "-", "-", "-"});
    }
    row.push_back(r.check.verified ? "yes" : "NO");
    t.add(row);
  }
  if (gpu_figures && baseline->ceiling) {
    const double ms = baseline->ceiling->read.ms.median;
    t.add({"-", "streaming read (ceiling)", std::to_string(baseline->ceiling->read_block),
           duration(ms), fixed(baseline->ceiling->read_gbps, 0), "100.0",
           first_ms > 0 ? fixed(first_ms / ms, 2) : "-",
           baseline->cub ? fixed(baseline->cub->ms.median / ms, 2) : "-", "-"});
  }
  if (gpu_figures && baseline->cub) {
    const double ms = baseline->cub->ms.median;
    const double gbps = gigabytes_per_second(baseline->n, ms);
    t.add({"-", "cub::DeviceReduce::Sum", "-", duration(ms), fixed(gbps, 0),
           baseline->ceiling ? fixed(100.0 * gbps / baseline->ceiling->read_gbps, 1) : "-",
           first_ms > 0 ? fixed(first_ms / ms, 2) : "-", "1.00",
           baseline->cub_check && baseline->cub_check->verified ? "yes" : "NO"});
  }
  t.print(out);
}

}  // namespace rl
