#include "common/host/harness.h"

#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "common/host/answers.h"
#include "common/host/fault_report.h"
#include "common/host/grade_main.h"
#include "common/host/hints.h"
#include "common/host/results.h"
#include "common/host/sim_bridge.h"
#include "common/host/sim_budget.h"
#include "common/host/table.h"
#include "common/host/trace_run.h"

namespace rl {

std::uint64_t default_n(Backend b) {
  return b == Backend::gpu ? std::uint64_t{1} << 24 : std::uint64_t{1} << 18;
}

std::unique_ptr<Device> open_device(const RunOptions& o, std::ostream& out) {
  std::string why;
  if (o.backend != Backend::sim) {
    if (auto gpu = make_gpu_device(&why)) {
      const auto s = gpu->shape();
      out << "backend: gpu (" << gpu->name() << ", " << s.sm_count << " SMs)\n";
      return gpu;
    }
    if (o.backend == Backend::gpu) throw UsageError("--backend gpu: " + why);
  }
  apply_simulator_options(o);
  // one line, not a bare segfault
  if (!kernel_faults_reported()) report_kernel_faults(2, "error: ", exit_failed);
  out << "backend: sim (CPU SIMT simulator" << (why.empty() ? "" : "; " + why)
      << "): times are simulated, not GPU speeds\n";
  return make_sim_device();
}

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.what() << '\n';
    return exit_usage;
  } catch (const OutOfDeviceMemory& e) {
    std::cerr << "error: " << e.what() << '\n';
    return exit_usage;
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of host memory\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return exit_failed;
  }
}

void print_case(std::ostream& out, const CaseResult& r, const Baseline* baseline) {
  const auto& c = r.check;
  out << "  " << (r.plan.variant.empty() ? std::string(r.plan.slug) : std::string(r.plan.variant))
      << " (block " << r.block
      << (r.launched_block ? ", launched " + std::to_string(r.launched_block) : std::string())
      << "): "
      << "result " << general(c.got, 9) << ", reference " << general(c.reference.sum, 9)
      << ", |error| " << general(std::abs(c.got - c.reference.sum), 3)
      << (c.verified ? " <= " : " > ") << "tolerance " << general(c.tolerance, 3)
      << (c.verified ? "  verified\n" : "  WRONG\n");
  if (!r.timing) return;
  const auto& t = *r.timing;
  out << "    time " << duration(t.ms.median) << " median (min " << duration(t.ms.min) << ", max "
      << duration(t.ms.max) << ", " << t.ms.count << " samples x " << t.calls_per_sample
      << " calls)";
  if (t.simulated) {
    out << ", simulated on the CPU: no GB/s claim\n";
    return;
  }
  out << ", launched " << to_string(t.way);
  if (r.device_ms)
    out << "; device time " << duration(r.device_ms->median)
        << (launch_bound(t, r.device_ms) ? " (launch-bound: the GPU was busy under 80% of it)"
                                         : "");
  out << "\n    " << fixed(r.gbps, 1) << " GB/s";
  // The yardsticks launched as this rung was (Baseline::ceiling_for, cub_for).
  const Device::Ceiling* ceiling = baseline ? baseline->ceiling_for(t.way) : nullptr;
  if (ceiling)
    out << " = " << fixed(*percent_of_ceiling(r, *baseline), 1) << "% of the streaming ceiling ("
        << fixed(gigabytes_per_second(r.n, baseline->ceiling_ms(t.way)), 0) << " GB/s, launched "
        << to_string(t.way) << ")";
  const Timing* cub = baseline ? baseline->cub_for(t.way.launch) : nullptr;
  if (cub)
    out << ", " << fixed(cub->ms.median / t.ms.median, 2) << "x CUB ("
        << fixed(gigabytes_per_second(r.n, cub->ms.median), 0) << " GB/s, " << to_string(cub->way)
        << ")";
  out << '\n';
}

namespace {

// The name a run prints for a plan: the lesson's slug for its own kernel, else the variant's.
std::string kernel_name(const Plan& p) {
  return std::string(p.variant.empty() ? p.slug : p.variant);
}

// The kernel `--variant graded` names: the first whose idea the grade checks in a trace (the
// exercise's variant, where the exercise asks for one), else the lesson's own. The viewer's --watch
// traces this one, in the student's build and in the solution's.
std::string graded_kernel(const Plans& all) {
  for (const Plan& p : all)
    if (p.idea.any()) return kernel_name(p);
  for (const Plan& p : all)
    if (p.variant.empty()) return kernel_name(p);
  return all.empty() ? std::string() : kernel_name(all.front());
}

// `all`, or only its plans named `name` (--variant); a UsageError naming the lesson's kernels when
// none is.
Plans chosen_plans(const Plans& all, const std::string& asked, const std::string& nn) {
  if (asked.empty()) return all;
  const std::string name = asked == "graded" ? graded_kernel(all) : asked;
  Plans chosen;
  std::vector<std::string> seen;  // each name once: a lesson has a plan per backend
  std::string names;
  for (const Plan& p : all) {
    if (kernel_name(p) == name) chosen.push_back(p);
    if (std::find(seen.begin(), seen.end(), kernel_name(p)) != seen.end()) continue;
    seen.push_back(kernel_name(p));
    names += (names.empty() ? "" : ", ") + kernel_name(p);
  }
  if (chosen.empty())
    throw UsageError("--variant: lesson " + nn + " has no kernel named '" + name +
                     "' (its kernels: " + names + ")");
  return chosen;
}

}  // namespace

int run_lesson(int argc, const char* const* argv, int number, const Plans& all_plans,
               const LessonExtras& extras) {
  return guarded([&] {
    const std::string nn = std::to_string(number / 10) + std::to_string(number % 10);
    const Plans& mine_all = all_plans;
    const std::string program =
        mine_all.empty() ? "lesson " + nn : nn + "_" + std::string(mine_all.front().slug);
    const auto options = parse_run_options(
        argc, argv, program, mine_all.empty() ? program : std::string(mine_all.front().title),
        (extras.questions.empty() ? 0u : unsigned{opt_answers}) |
            (mine_all.empty() ? 0u : unsigned{opt_variant}));
    if (!options) return exit_ok;
    if (options->grade && !options->variant.empty())
      throw UsageError(
          "--variant: --grade grades every kernel of the lesson, so it takes no --variant");
    const Plans mine = chosen_plans(mine_all, options->variant, nn);
    if (options->hint) {
      print_hint(std::cout, number, options->hint);
      return exit_ok;
    }
    if (!options->check_answers.empty())
      return check_answers(std::cout, options->check_answers, extras.questions);
    if (mine.empty()) {  // lesson 16 in a build without CUDA: its kernels are NVIDIA's libraries
      if (!options->json_path.empty() || !options->trace_path.empty())
        throw UsageError("lesson " + nn +
                         " has no version in this build (it calls NVIDIA's compiled libraries, "
                         "which need CUDA and a GPU): nothing to write to " +
                         (options->json_path.empty() ? "--trace" : "--json"));
      std::cout << "lesson " << number
                << " has no version in this build: it calls NVIDIA's compiled libraries, "
                << "which need CUDA and a GPU\n";
      if (options->grade) std::cout << "result: SKIPPED\n";
      return options->grade ? exit_skipped : exit_ok;
    }
    if (options->grade) return grade_lesson(std::cout, argv[0], number, mine, *options, extras);
    auto device = open_device(*options, std::cout);
    const bool tracing = !options->trace_path.empty();
    // What --trace records, found before any work: the lesson's own kernel on this backend, or
    // the one --variant names.
    const auto own_kernel = std::find_if(mine.begin(), mine.end(), [&](const Plan& p) {
      return p.backend == device->backend() && (p.variant.empty() || !options->variant.empty());
    });
    if (tracing && (own_kernel == mine.end() || !own_kernel->reduce_traced))
      throw UsageError("--trace: lesson " + nn + " has no kernel of its own to trace on the " +
                       std::string(to_string(device->backend())) +
                       " backend (lesson 16's kernels are NVIDIA's CUB and Thrust)");
    const std::uint64_t n = options->n_given ? options->n
                            : tracing        ? default_trace_n
                                             : default_n(device->backend());
    Session session(*device, *options);
    session.check_fits(n);
    if (device->backend() == Backend::sim) {
      // Each plan: the checked run, then the timed samples and the ten repeats for bitwise
      // reproducibility; a trace at a size given by --n runs the lesson's kernel twice more.
      const std::uint64_t runs =
          1 + (options->check_only ? 0 : samples(*options, Backend::sim) + 10);
      std::vector<std::pair<const Plan*, unsigned>> plans;
      for (const auto& r : mine)
        if (r.backend == Backend::sim)
          plans.emplace_back(&r, block_for(r, options->block, options->block_given));
      const std::uint64_t extra = tracing && options->n_given ? 2 : 0;
      if (static_cast<double>(n) * static_cast<double>(runs * plans.size() + extra) >=
          sim_measure_above) {
        SimEstimate estimate;
        for (const auto& [plan, block] : plans)
          estimate.add(plan_cost(*device, *plan, block), n,
                       runs + (plan->variant.empty() ? extra : 0));
        const std::string kernels =
            plans.size() == 1 ? "kernel" : std::to_string(plans.size()) + " kernels";
        check_sim_estimate(estimate,
                           std::to_string(runs) + " runs of lesson " + nn + "'s " + kernels +
                               " over " + size_text(n) + " elements",
                           *options, std::cout);
      }
    }
    session.prepare(n);
    std::cout << "lesson " << program << ": N = " << n << " floats, seed " << options->seed << " ("
              << to_string(options->distribution) << ")\n";
    const Baseline* baseline = options->check_only ? nullptr : &session.baseline(mine);
    std::vector<nlohmann::json> runs;
    std::vector<CaseResult> results;
    bool all_verified = true;
    bool ran = false;
    for (const auto& r : mine) {
      if (r.backend != device->backend()) continue;
      ran = true;
      const unsigned block = tracing && !options->block_given
                                 ? default_trace_block
                                 : block_for(r, options->block, options->block_given);
      const CaseResult result = session.run(r, block, !options->check_only);
      session.note_reads({result});  // a rung faster than the ceiling kernel is the ceiling
      print_case(std::cout, result, baseline);
      all_verified = all_verified && result.check.verified;
      auto record = to_json(result, *options, baseline);
      if (!options->check_only && result.check.verified) {
        constexpr unsigned runs_compared = 10;
        const std::size_t distinct = session.distinct_results(r, block, runs_compared);
        std::cout << "    "
                  << (distinct == 1 ? "bitwise identical"
                                    : std::to_string(distinct) + " different results")
                  << " over " << runs_compared << " runs on the same input\n";
        record["distinct_results_of_10"] = distinct;
      }
      runs.push_back(record);
      results.push_back(result);
    }
    if (!ran)
      std::cout << "  lesson " << number << " has no " << to_string(device->backend())
                << " version: it calls NVIDIA's compiled libraries, which need a GPU\n";
    if (tracing) {
      const Plan& own = *own_kernel;
      const unsigned block = options->block_given ? options->block : default_trace_block;
      const auto trace = record_trace(session, own, block);
      write_json_file(options->trace_path, trace, "--trace");
      std::cout << "  trace: " << trace["events"].size() << " events of "
                << trace["launches"].size() << " launches written to " << options->trace_path
                << '\n';
      if (trace["result"].get<float>() !=
          static_cast<float>(session.run(own, block, false).check.got))
        throw std::runtime_error("trace: the traced kernel's result differs from the untraced one");
    }
    nlohmann::json extra;  // a trace's run is for the viewer: nothing else is reported
    if (extras.report && !tracing) extras.report(session, results, baseline, std::cout, extra);
    if (!options->json_path.empty()) {
      std::vector<nlohmann::json> baselines;
      if (baseline) baselines.push_back(to_json(*baseline));
      nlohmann::json doc = results_document(*device, *options, runs, baselines);
      if (!extra.is_null()) doc[extras.key] = extra;
      write_json_file(options->json_path, doc);
    }
    return all_verified ? exit_ok : exit_failed;
  });
}

}  // namespace rl
