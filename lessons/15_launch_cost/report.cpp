#include "lessons/15_launch_cost/report.h"

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/device.h"
#include "common/host/results.h"
#include "common/host/session.h"
#include "common/host/stats.h"
#include "common/host/table.h"
#include "lessons/15_launch_cost/probe.h"

namespace rl::launches {
namespace {

constexpr LaunchWay ways[] = {{LaunchPath::stream, false},
                              {LaunchPath::stream, true},
                              {LaunchPath::graph, false},
                              {LaunchPath::graph, true}};

// About 200 calls back to back a sample, as many as a 1 ms sample holds at 5 us a launch.
Sampling probe_sampling(const Session& session) {
  Sampling s = session.sampling();
  s.min_sample_ms = 1.0;
  return s;
}

// The single pass launched `way` on the GPU (B): lesson 13's plan with the dependent launch, lesson
// 12's without (the same kernel but for the two calls that let it overlap).
template <Backend B>
Plan single_pass(LaunchWay way) {
  Plan p = way.programmatic ? lesson_plans<13, B>().front() : lesson_plans<12, B>().front();
  p.way = way;
  return p;
}

// The plan's device time a call made alone (Device::device_time with `alone`): what one call costs
// the GPU, whatever the calls around it.
std::optional<Summary> alone_time(Session& session, const Plan& p, unsigned block) {
  Device& d = session.device();
  const DeviceShape shape = d.shape();
  DeviceBuffer out(d, sizeof(float));
  DeviceBuffer scratch(d, p.scratch_bytes(session.n(), block, shape));
  return d.device_time(
      [&](std::size_t k) {
        p.reduce({session.device_input(k), out.get<float>(), session.n(), block, scratch.get(),
                  shape, d.stream()});
      },
      session.copies(), device_time_calls, p.way.launch, true);
}

// One row of the table: `plan_for(way)` timed each way it has a plan for, with a call's device
// time alone.
struct Row {
  std::vector<std::string> times, device;
  nlohmann::json json = nlohmann::json::object(), device_json = nlohmann::json::object();
};
template <class PlanFor>
Row time_row(Session& session, PlanFor plan_for) {
  Row row;
  for (const LaunchWay way : ways) {
    const std::optional<Plan> p = plan_for(way);
    const CaseResult r = p ? session.run(*p, 1024, true) : CaseResult{};
    if (!p || !r.check.verified || !r.timing) {
      row.times.push_back(p ? "wrong" : "-");
      row.device.push_back("-");
      continue;
    }
    row.json[to_string(way)] = to_json(*r.timing);
    row.times.push_back(duration(r.timing->ms.median));
    const std::optional<Summary> alone = alone_time(session, *p, 1024);
    if (alone) row.device_json[to_string(way)] = to_json(*alone);
    row.device.push_back(alone ? duration(alone->median) : "-");
  }
  return row;
}

// The table, on the GPU. A template, so that a build without the GPU's copies never instantiates it.
template <Backend B>
void gpu_report(Session& session, std::ostream& out, nlohmann::json& record) {
  Device& device = session.device();
  const Sampling sampling = probe_sampling(session);
  nlohmann::json empty = nlohmann::json::object();
  std::vector<std::string> empty_row{"an empty kernel (1 block)"};
  for (const LaunchWay way : ways) {
    const Timing probe =
        device.time([&](std::size_t) { launch_probe_kernel<B>(device.stream(), way.programmatic); },
                    1, sampling, way.launch);
    empty[to_string(way)] = to_json(probe);
    empty_row.push_back(duration(probe.ms.median));
  }
  // Lessons 12 and 13's single pass, which waits first; this lesson's, which waits after its loads
  // (with the dependent launch only: without it, its wait has nothing to do).
  const Row first =
      time_row(session, [](LaunchWay way) { return std::optional<Plan>(single_pass<B>(way)); });
  const Plans mine = lesson_plans<15, B>();
  const Row after = time_row(session, [&](LaunchWay way) -> std::optional<Plan> {
    if (!way.programmatic) return std::nullopt;
    for (const Plan& p : mine)
      if (p.way == way) return p;
    return std::nullopt;
  });
  // The lesson's own plan with each call a replay of its one-reduction graph, on the stream.
  Plan own = mine.front();
  own.way = {LaunchPath::stream, true};
  const CaseResult replayed = session.run(own, 1024, true);

  Table t({"what is launched", "stream", "stream+PDL", "graph", "graph+PDL"});
  t.add(empty_row);
  const auto add = [&](const std::string& what, const std::vector<std::string>& cells) {
    std::vector<std::string> row{what};
    row.insert(row.end(), cells.begin(), cells.end());
    t.add(row);
  };
  add("the single pass, waiting first (lessons 12, 13)", first.times);
  add("  its device time, a call alone", first.device);
  add("the single pass, waiting after its loads (15)", after.times);
  add("  its device time, a call alone", after.device);
  out << "\nWhat a launch costs at n = " << session.n() << ", " << sampling.samples
      << " samples of about " << fixed(sampling.min_sample_ms, 0)
      << " ms of calls back to back (per call, median; from a graph: a sample's calls recorded "
         "into one graph):\n\n";
  t.print(out);
  if (replayed.check.verified && replayed.timing)
    out << "\nThis lesson's plan with each call a replay of its own one-reduction graph: "
        << duration(replayed.timing->ms.median) << " a call.\n";
  record = {{"n", session.n()},
            {"method",
             "Device::time: calls back to back on the stream, or a sample's calls recorded into "
             "one graph and replayed; about 1 ms of calls a sample"},
            {"empty_kernel", empty},
            {"single_pass", first.json},
            {"single_pass_device_time", first.device_json},
            {"waits_after_loads", after.json},
            {"waits_after_loads_device_time", after.device_json}};
  if (replayed.check.verified && replayed.timing)
    record["replay_per_call"] = to_json(*replayed.timing);
}

void report(Session& session, const std::vector<CaseResult>& runs, const Baseline* baseline,
            std::ostream& out, nlohmann::json& record) {
  if (session.device().backend() != Backend::gpu || !baseline) {
    out << "\nWhat a launch costs is a GPU's figure: on a GPU this lesson measures it after the "
           "runs (its README has the H100's).\n";
    return;
  }
  (void)runs;
  if constexpr (gpu_backend_built) gpu_report<Backend::gpu>(session, out, record);
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  e.key = "launch_costs";
  e.report = report;
  return e;
}

}  // namespace rl::launches
