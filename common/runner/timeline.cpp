#include "common/runner/timeline.h"

#include <iostream>

#include "common/host/harness.h"
#include "common/host/timeline_calls.h"
#include "common/runner/mode_options.h"

#ifndef RL_HAVE_CUPTI
#define RL_HAVE_CUPTI 0  // CMake defines it 1 where it found CUPTI
#endif

#if RL_HAVE_CUPTI
#include <algorithm>
#include <stdexcept>

#include "common/backends/gpu/cupti_activity.h"
#include "common/host/course.h"
#include "common/host/profile_record.h"  // size_label
#include "common/host/results.h"
#endif

#ifndef RL_NO_CUPTI_WHY
#define RL_NO_CUPTI_WHY "CUPTI was not found when it was configured"
#endif

namespace rl {

#if RL_HAVE_CUPTI
namespace {

// The records of one plan at the session's size: first a checked call, then one call on each
// rotated input copy (at least three) as warm-up, then `calls` timed calls that go on round the
// copies, each ended by a synchronize and bracketed by CUPTI timestamps.
nlohmann::json time_plan(Session& session, const Plan& plan, unsigned block, unsigned calls) {
  Device& device = session.device();
  const CaseResult checked = session.run(plan, block, false);
  if (!checked.check.verified)
    throw std::runtime_error("wrong result: " + std::to_string(checked.check.got) +
                             ", the reference is " + std::to_string(checked.check.reference.sum));
  const DeviceShape shape = device.shape();
  DeviceBuffer out(device, sizeof(float));
  DeviceBuffer scratch(device, plan.scratch_bytes(session.n(), block, shape));
  const auto call = [&](std::size_t copy) {
    plan.reduce({session.device_input(copy), out.get<float>(), session.n(), block, scratch.get(),
                 shape, device.stream()});
    device.synchronize();
  };
  const std::size_t copies = session.copies();
  const std::size_t warmup = std::max<std::size_t>(3, copies);
  for (std::size_t i = 0; i < warmup; ++i) call(i % copies);
  cupti::take();  // the warm-up's records: dropped
  std::vector<CallWindow> windows;
  for (unsigned k = 0; k < calls; ++k) {
    const std::uint64_t begin = cupti::now();
    call((warmup + k) % copies);
    windows.push_back({begin, cupti::now()});
  }
  cupti::Records records = cupti::take();
  std::vector<CallBreakdown> breakdowns;
  for (const auto& one_call :
       split_into_calls(std::move(records.api), std::move(records.device), windows))
    breakdowns.push_back(break_down(one_call));
  return timeline_entry(
      {plan.lesson, std::string(plan.slug), std::string(plan.variant), session.n(), block},
      breakdowns);
}

int record_timeline(const TimelineOptions& o) {
  Plans gpu_plans;
  for (const Plan& p : ladder_plans())
    if (p.backend == Backend::gpu) gpu_plans.push_back(p);
  const auto sizes = parse_size_list(o.sizes, "--n");
  const auto lessons = parse_lesson_list(o.lessons, "--lessons", gpu_plans);
  const auto calls = static_cast<unsigned>(parse_count(o.calls, "--calls", 10000));
  if (calls == 0) throw UsageError("--calls must be at least 1 (got 0)");
  if (!o.json_path.empty()) check_output_path(o.json_path, "--json");

  std::string why;
  const auto gpu = make_gpu_device(&why);
  if (!gpu) throw UsageError("timeline needs an NVIDIA GPU: " + why);
  // On from here: each plan drops what came before its timed calls (cupti::take).
  cupti::start({CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
                CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                CUPTI_ACTIVITY_KIND_MEMSET});
  std::uint32_t version = 0;
  if (cuptiGetVersion(&version) != CUPTI_SUCCESS) throw std::runtime_error("CUPTI: no version");
  const std::string tool = "CUPTI API version " + std::to_string(version);
  std::cout << "timeline: " << gpu->name() << ", " << tool << ", median of " << calls << " calls\n";

  RunOptions options;  // the default input (seed, uniform), as every lesson's
  Session session(*gpu, options);
  std::vector<nlohmann::json> entries;
  std::vector<std::string> failures;
  for (const std::uint64_t n : sizes) {
    session.check_fits(n);
    session.prepare(n);
    for (const Plan& p : gpu_plans) {
      if (std::find(lessons.begin(), lessons.end(), p.lesson) == lessons.end()) continue;
      const unsigned block = block_for(p, options.block, false);
      const std::string what = plan_label(p) + ", n = " + size_label(n);
      std::cerr << "\rtimeline: " << what << "          " << std::flush;
      try {
        entries.push_back(time_plan(session, p, block, calls));
      } catch (const std::exception& e) {
        failures.push_back(what + ": " + e.what());
      }
    }
  }
  cupti::stop();
  std::cerr << "\rtimeline: done                                        \n";
  for (const auto& f : failures) std::cerr << "timeline: FAILED: " << f << '\n';
  const nlohmann::json method = {
      {"calls", calls},
      {"statistic", "median"},
      {"call", "the plan's launches, then cudaStreamSynchronize; CUPTI timestamps around it"},
      {"warmup", "one call on each rotated input copy (at least 3) before the timed calls"},
      {"cache", "inputs rotated over >= 3x L2, the session's copies taken in turn"},
      {"records",
       "CUPTI activity: RUNTIME, DRIVER (those outside runtime calls), "
       "CONCURRENT_KERNEL, MEMCPY, MEMSET"}};
  const auto doc = timeline_document(gpu->describe(), tool, method, entries);
  std::cout << '\n';
  print_timeline_table(std::cout, doc);
  if (!o.json_path.empty()) {
    write_json_file(o.json_path, doc);
    std::cout << "\nwrote " << entries.size() << " entries to " << o.json_path << '\n';
  }
  return failures.empty() ? exit_ok : exit_failed;
}

}  // namespace
#endif

bool timeline_built() { return RL_HAVE_CUPTI; }
std::string timeline_absent_reason() { return RL_HAVE_CUPTI ? "" : RL_NO_CUPTI_WHY; }

int run_timeline(const TimelineOptions& o) {
  if (!o.from.empty()) {
    const auto doc = read_json_option(o.from, "--from");
    try {
      print_timeline_table(std::cout, doc);
    } catch (const std::exception& e) {
      throw UsageError("--from: '" + o.from + "': " + e.what());
    }
    return exit_ok;
  }
#if RL_HAVE_CUPTI
  return record_timeline(o);
#else
  throw UsageError("timeline needs CUPTI, which this build lacks (" + timeline_absent_reason() +
                   "): only --from FILE works here");
#endif
}

}  // namespace rl
