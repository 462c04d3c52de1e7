// clang-format off
// reducelab: the whole ladder in one program.
//   reducelab ladder   every lesson at one size, one table (the README's main job)
//   reducelab bench    every lesson over a range of sizes, with the ceiling and CUB, into one JSON file
//   reducelab beyond   lessons 18-21 (operators and types, rows, columns, any axes): their tables, one JSON
//   reducelab scaling  lesson 22 over 1, 2, 4, 8 GPUs (as present): local, collective, aggregate GB/s
//   reducelab bugs     lesson 17, a side lesson: ten classic mistakes, one line each (17_common_bugs)
//   reducelab profile  every lesson's kernels under Nsight Compute (profile.h)
//   reducelab timeline where a call's time goes, from CUPTI's activity records (timeline.h)
//   reducelab sweep    lesson 07's kernel at 2, 4, ..., 2^14 inputs a thread (its cascading)
// clang-format on
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "common/host/course.h"
#include "common/host/harness.h"
#include "common/host/results.h"
#include "common/host/sim_budget.h"
#include "common/host/table.h"
#include "common/runner/beyond.h"
#include "common/runner/ladder.h"
#include "common/runner/mode_options.h"
#include "common/runner/profile.h"
#include "common/runner/sim_counts.h"
#include "common/runner/timeline.h"

namespace {

using namespace rl;

bool all_verified(const std::vector<CaseResult>& results) {
  for (const auto& r : results)
    if (!r.check.verified) return false;
  return !results.empty();
}

// The ladder's plans on this backend, each with the block it runs at.
std::vector<std::pair<const Plan*, unsigned>> ladder_runs(Backend b, const RunOptions& o) {
  std::vector<std::pair<const Plan*, unsigned>> plans;
  for (const auto& p : ladder_plans())
    if (p.backend == b) plans.emplace_back(&p, block_for(p, o.block, o.block_given));
  return plans;
}

// On the simulator: the estimate of `runs` runs of each of `plans` at each size, refused or said
// (sim_budget.h). Nothing is measured for runs that are short at any cost.
void check_estimate(Device& device, const RunOptions& o,
                    const std::vector<std::pair<const Plan*, unsigned>>& plans,
                    const std::vector<std::uint64_t>& sizes, std::uint64_t runs,
                    const std::string& what) {
  if (device.backend() != Backend::sim) return;
  double elements = 0;
  for (const std::uint64_t n : sizes)
    elements += static_cast<double>(n) * static_cast<double>(runs * plans.size());
  if (elements < static_cast<double>(sim_measure_above)) return;
  SimEstimate estimate;
  for (const auto& [plan, block] : plans) {
    const SimCost cost = plan_cost(device, *plan, block);
    for (const std::uint64_t n : sizes) estimate.add(cost, n, runs);
  }
  check_sim_estimate(estimate, what, o, std::cout);
}

// The same for every plan of the ladder.
void check_ladder_estimate(Device& device, const RunOptions& o,
                           const std::vector<std::uint64_t>& sizes, std::uint64_t runs,
                           const std::string& what) {
  check_estimate(device, o, ladder_runs(device.backend(), o), sizes, runs, what);
}

// Lesson 16 calls NVIDIA's libraries: where the backend has no version of it, the table says why.
void note_absent_lessons(std::ostream& out, Backend b) {
  for (const auto& p : ladder_plans())
    if (p.lesson == 16 && p.backend == b) return;
  out << "lesson 16 (versus_cub) is not in this table: its kernels are NVIDIA's CUB and Thrust, "
         "which run only on a "
      << (b == Backend::sim ? "GPU (the simulator runs our own kernels only)"
                            : "GPU, in a build with CUDA")
      << '\n';
}

// The simulated ladder's counts: the trace of each rung is recorded at this size at most.
constexpr std::uint64_t traced_n_for_counts = std::uint64_t{1} << 14;

int ladder(const RunOptions& o) {
  auto device = open_device(o, std::cout);
  const std::uint64_t n = o.n_given ? o.n : default_n(device->backend());
  Session session(*device, o);
  session.check_fits(n);
  const std::uint64_t runs = 1 + (o.check_only ? 0 : samples(o, device->backend()));
  check_ladder_estimate(*device, o, {n}, runs,
                        std::to_string(runs) + " runs of each of the ladder's " +
                            std::to_string(ladder_runs(device->backend(), o).size()) +
                            " kernels over " + size_text(n) + " elements");
  session.prepare(n);
  std::cout << "ladder: N = " << n << " floats ("
            << general(static_cast<double>(n) * 4.0 / (1 << 20), 4) << " MiB), block " << o.block
            << (o.block_given ? "" : " (or the lesson's own)") << ", seed " << o.seed << " ("
            << to_string(o.distribution) << ")";
  if (o.check_only)
    std::cout << ", checked, not timed\n\n";
  else
    std::cout << ", median of " << session.sampling().samples << " samples\n\n";
  const Baseline* baseline = o.check_only ? nullptr : &session.baseline(ladder_plans());
  const auto results = run_ladder(session, o.block, o.block_given, !o.check_only);
  session.note_reads(results);  // a rung faster than the ceiling kernel is the ceiling
  if (device->backend() == Backend::sim) {
    // A simulated time is a CPU's: the table shows what the simulator counts for each rung instead,
    // beside what the course's GPU measured for it.
    std::vector<RungCounts> counts;
    for (const auto& r : results)
      counts.push_back(count_rung(*device, o, session, r.plan, r.block, traced_n_for_counts));
    std::string why;
    const auto measured = MeasuredLadder::load(measured_ladder_path(), why);
    print_simulated_ladder(std::cout, results, counts, measured, n);
    if (!measured) std::cout << "(no GPU figures beside them: " << why << ")\n";
  } else {
    print_ladder_table(std::cout, results, baseline);
  }
  note_absent_lessons(std::cout, device->backend());
  if (!o.json_path.empty()) {
    std::vector<nlohmann::json> runs_json;
    for (const auto& r : results) runs_json.push_back(to_json(r, o, baseline));
    write_json_file(o.json_path, results_document(*device, o, runs_json,
                                                  baseline ? std::vector{to_json(*baseline)}
                                                           : std::vector<nlohmann::json>{}));
  }
  return all_verified(results) ? exit_ok : exit_failed;
}

int bench(const RunOptions& o, unsigned from, unsigned to, unsigned at) {
  if (from > to)
    throw UsageError("--from " + std::to_string(from) + " is above --to " + std::to_string(to));
  if (at < from || at > to)
    throw UsageError("--at " + std::to_string(at) + " is outside --from " + std::to_string(from) +
                     " to --to " + std::to_string(to) +
                     ": the ladder table is printed at one of the sizes measured");
  auto device = open_device(o, std::cout);
  Session session(*device, o);
  session.check_fits(std::uint64_t{1} << to);
  std::vector<std::uint64_t> sizes;
  for (unsigned e = from; e <= to; ++e) sizes.push_back(std::uint64_t{1} << e);
  const std::uint64_t runs = 1 + samples(o, device->backend());
  check_ladder_estimate(*device, o, sizes, runs,
                        std::to_string(runs) + " runs of each of the ladder's " +
                            std::to_string(ladder_runs(device->backend(), o).size()) +
                            " kernels at each of 2^" + std::to_string(from) + " to 2^" +
                            std::to_string(to) + " elements");
  std::vector<nlohmann::json> runs_json, baselines;
  std::vector<CaseResult> at_results;
  const Baseline* at_baseline = nullptr;
  Baseline kept;
  bool ok = true;
  for (unsigned e = from; e <= to; ++e) {
    std::cerr << "\rbench: N = 2^" << e << " (" << (e - from + 1) << " of " << (to - from + 1)
              << ")   " << std::flush;
    session.prepare(std::uint64_t{1} << e);
    const Baseline& b = session.baseline(ladder_plans());
    const auto results = run_ladder(session, o.block, o.block_given, true);
    session.note_reads(results);  // a rung faster than the ceiling kernel is the ceiling
    baselines.push_back(to_json(b));
    ok = ok && all_verified(results);
    for (const auto& r : results) runs_json.push_back(to_json(r, o, &b));
    if (e == at) {
      at_results = results;
      kept = b;
      at_baseline = &kept;
    }
  }
  std::cerr << "\rbench: done                              \n";
  write_json_file(o.json_path, results_document(*device, o, runs_json, baselines));
  std::cout << "\nladder at N = 2^" << at << ":\n\n";
  print_ladder_table(std::cout, at_results, at_baseline);
  note_absent_lessons(std::cout, device->backend());
  std::cout << "\nwrote " << runs_json.size() << " results to " << o.json_path << '\n';
  return ok ? exit_ok : exit_failed;
}

// Lesson 07's kernel at 2, 4, ..., 2^14 inputs a thread (sweep_plans), then at its own grid sized
// to the GPU, at each size: its README's table of elements per thread. One results file.
int sweep(const RunOptions& o, const std::vector<std::uint64_t>& sizes) {
  auto device = open_device(o, std::cout);
  Session session(*device, o);
  session.check_fits(*std::max_element(sizes.begin(), sizes.end()));
  std::vector<std::pair<const Plan*, unsigned>> plans;
  for (const Plan& p : sweep_plans())
    if (p.backend == device->backend())
      plans.emplace_back(&p, block_for(p, o.block, o.block_given));
  if (const Plan* own = find_plan(7, device->backend()))
    plans.emplace_back(own, block_for(*own, o.block, o.block_given));
  const std::uint64_t runs = 1 + (o.check_only ? 0 : samples(o, device->backend()));
  check_estimate(*device, o, plans, sizes, runs,
                 std::to_string(runs) + " runs of each of lesson 07's " +
                     std::to_string(plans.size()) + " plans at " + std::to_string(sizes.size()) +
                     " sizes");
  std::vector<nlohmann::json> runs_json, baselines;
  bool ok = true;
  for (const std::uint64_t n : sizes) {
    session.prepare(n);
    const Baseline* baseline = o.check_only ? nullptr : &session.baseline();
    std::vector<CaseResult> results;
    for (const auto& [plan, block] : plans)
      results.push_back(session.run(*plan, block, !o.check_only));
    session.note_reads(results);  // a rung faster than the ceiling kernel is the ceiling
    if (baseline) baselines.push_back(to_json(*baseline));
    for (const CaseResult& r : results) runs_json.push_back(to_json(r, o, baseline));
    ok = ok && all_verified(results);
    std::cout << "lesson 07 at N = " << size_text(n) << ", inputs a thread fixed, then its own grid"
              << (o.check_only ? " (checked, not timed)" : "") << ":\n\n";
    print_ladder_table(std::cout, results, baseline);
    std::cout << '\n';
  }
  if (!o.json_path.empty()) {
    write_json_file(o.json_path, results_document(*device, o, runs_json, baselines));
    std::cout << "wrote " << runs_json.size() << " results to " << o.json_path << '\n';
  }
  return ok ? exit_ok : exit_failed;
}

// Lessons 22 and 17 are programs of their own (21 links NCCL; 16 is not a rung of the ladder); the
// runner hands its arguments, --help included, on to one, from the folder the runner itself is in.
// `why_absent` says why a build may lack it.
int hand_on(const char* self, const std::string& command, const std::string& lesson,
            const std::vector<std::string>& first, const std::vector<std::string>& args,
            const std::string& why_absent) {
  const auto exe = std::filesystem::absolute(self).parent_path() / lesson;
  if (!std::filesystem::exists(exe)) {
    for (const auto& a : args)
      if (a == "--help" || a == "-h") {
        std::cout << "reducelab " << command << " [" << lesson << "'s options]: runs "
                  << exe.string() << " with them; that lesson is not built here (" << why_absent
                  << ")\n";
        return exit_ok;
      }
    throw UsageError(command + ": " + lesson + " was not built here (" + why_absent + ")");
  }
  std::vector<std::string> argv_strings{exe.string()};
  argv_strings.insert(argv_strings.end(), first.begin(), first.end());
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  ::execv(exe.c_str(), argv.data());
  throw std::runtime_error("cannot start " + exe.string());
}

int scaling(const char* self, const std::vector<std::string>& args) {
  return hand_on(self, "scaling", "22_multi_gpu_nccl", {"--scaling"}, args,
                 "it needs CUDA and NCCL, which configure did not find");
}

}  // namespace

int main(int argc, char** argv) {
  return guarded([&] {
    CLI::App app("ReduceLab: the parallel-reduction ladder, checked and measured", "reducelab");
    app.require_subcommand(1);
    auto* ladder_cmd =
        app.add_subcommand("ladder", "run every lesson at one size and print the ladder table");
    RunOptionParser ladder_options(*ladder_cmd,
                                   {opt_n | opt_block | opt_reps | opt_seed | opt_dist | opt_json |
                                    opt_check_only | opt_backend | opt_sim | opt_racecheck});
    auto* bench_cmd = app.add_subcommand(
        "bench", "run every lesson over N = 2^from .. 2^to and write one JSON file");
    RunOptionSet bench_set{opt_block | opt_reps | opt_seed | opt_dist | opt_json | opt_backend |
                           opt_sim | opt_racecheck};
    bench_set.json_help = "write every result, with the ceiling and CUB at each size, to this file";
    bench_set.json_required = true;
    RunOptionParser bench_options(*bench_cmd, bench_set);
    std::string from = "10", to = "28", at = "24";
    bench_cmd->add_option("--from", from, "smallest size, 2^K")
        ->type_name("K")
        ->capture_default_str();
    bench_cmd->add_option("--to", to, "largest size, 2^K (K at most 34)")
        ->type_name("K")
        ->capture_default_str();
    bench_cmd->add_option("--at", at, "print the ladder table at 2^K (K from --from to --to)")
        ->type_name("K")
        ->capture_default_str();
    auto* sweep_cmd = app.add_subcommand(
        "sweep",
        "lesson 07's kernel at 2, 4, ..., 2^14 inputs a thread and at its own grid, at each size");
    RunOptionParser sweep_options(*sweep_cmd, {opt_block | opt_reps | opt_seed | opt_dist |
                                               opt_json | opt_check_only | opt_backend | opt_sim});
    std::string sweep_sizes = "2^24,2^28";
    sweep_cmd->add_option("--n", sweep_sizes, "sizes, comma-separated")
        ->type_name("N,...")
        ->capture_default_str();
    auto* beyond_cmd = app.add_subcommand("beyond",
                                          "lessons 18-21 (operators x types, rows, columns, any "
                                          "axes), each at its own sizes; --json FILE");
    BeyondOptions beyond_options;
    beyond_cmd->add_option("--backend", beyond_options.backend,
                           "gpu or sim (default: the GPU when one is visible)");
    beyond_cmd->add_option(
        "--baseline", beyond_options.baseline_path,
        "PyTorch's times for lessons 19-21 (tests/device/torch_baselines.py --out FILE)");
    beyond_cmd->add_option("--json", beyond_options.json_path,
                           "write every lesson's table into this file (reducelab.beyond)");
    beyond_cmd->add_flag("--check-only", beyond_options.check_only, "verify, don't time");
    auto* scaling_cmd = app.add_subcommand("scaling",
                                           "lesson 22: 2^28 floats per GPU (or --n-per-gpu) on 1, "
                                           "2, 4, 8 GPUs as present; its options are "
                                           "lesson 22's (reducelab scaling --help lists them)");
    scaling_cmd->prefix_command();  // everything after `scaling`, --help included, is lesson 22's
    scaling_cmd->set_help_flag();
    auto* bugs_cmd =
        app.add_subcommand("bugs",
                           "lesson 17 (a side lesson): ten classic mistakes, on the GPU or the "
                           "simulator, one line each; "
                           "its options are lesson 17's (reducelab bugs --help lists them)");
    bugs_cmd->prefix_command();
    bugs_cmd->set_help_flag();
    auto* profile_cmd = app.add_subcommand(
        "profile",
        "every lesson's kernels under Nsight Compute (ncu) at 2^20 and 2^24, block 256 and each "
        "plan's own: one record per kernel launch, one JSON file, a table");
    ProfileOptions profile_options;
    profile_cmd
        ->add_option("--json", profile_options.json_path,
                     "write the record (reducelab.profile, common/PROFILE.md) to this file")
        ->type_name("FILE");
    profile_cmd->add_option("--n", profile_options.sizes, "sizes, comma-separated")
        ->type_name("N,...")
        ->capture_default_str();
    profile_cmd
        ->add_option("--lessons", profile_options.lessons,
                     "only these lessons, comma-separated (default: all of the ladder)")
        ->type_name("L,...");
    profile_cmd
        ->add_option("--ncu", profile_options.ncu,
                     "the ncu to run (default: ncu on PATH, else the CUDA toolkit's)")
        ->type_name("PATH");
    profile_cmd
        ->add_option("--from", profile_options.from,
                     "print the table of this reducelab.profile file; profile nothing")
        ->type_name("FILE");
    // What ncu runs, once per plan, size and block: one reduction call (not for people).
    auto* profile_call_cmd = app.add_subcommand("profile-call", "")->group("");
    ProfileCallOptions call_options;
    profile_call_cmd->add_option("--plan", call_options.plan)->required();
    profile_call_cmd->add_option("--n", call_options.n)->required();
    profile_call_cmd->add_option("--block", call_options.block)->required();
    auto* timeline_cmd = app.add_subcommand(
        "timeline",
        timeline_built()
            ? "where a call's time goes (CUPTI): lessons 07, 10, 12, 16 at 2^10, 2^20, 2^24, each "
              "call's API calls, kernels, copies and gaps; one JSON file, a table"
            : "where a call's time goes, from CUPTI: not in this build (" +
                  timeline_absent_reason() + "); --from prints a record's table");
    TimelineOptions timeline_options;
    if (timeline_built()) {
      timeline_cmd
          ->add_option("--json", timeline_options.json_path,
                       "write the record (reducelab.timeline, common/PROFILE.md) to this file")
          ->type_name("FILE");
      timeline_cmd->add_option("--n", timeline_options.sizes, "sizes, comma-separated")
          ->type_name("N,...")
          ->capture_default_str();
      timeline_cmd->add_option("--lessons", timeline_options.lessons, "lessons, comma-separated")
          ->type_name("L,...")
          ->capture_default_str();
      timeline_cmd
          ->add_option("--calls", timeline_options.calls,
                       "timed calls per lesson and size (the median is reported)")
          ->type_name("K")
          ->capture_default_str();
    }
    timeline_cmd
        ->add_option("--from", timeline_options.from,
                     "print the table of this reducelab.timeline file; record nothing")
        ->type_name("FILE");
    if (!parse_command_line(app, argc, argv)) return exit_ok;
    if (*profile_cmd) return run_profile(profile_options);
    if (*profile_call_cmd) return profile_call(call_options);
    if (*timeline_cmd) return run_timeline(timeline_options);
    if (*ladder_cmd) return ladder(ladder_options.resolve());
    if (*sweep_cmd) return sweep(sweep_options.resolve(), parse_size_list(sweep_sizes, "--n"));
    if (*scaling_cmd) return scaling(argv[0], scaling_cmd->remaining());
    if (*bugs_cmd)
      return hand_on(argv[0], "bugs", "17_common_bugs", {}, bugs_cmd->remaining(),
                     "it was left out of this build");
    if (*beyond_cmd) {
      parse_backend(beyond_options.backend);  // gpu, sim or nothing
      if (!beyond_options.json_path.empty()) check_output_path(beyond_options.json_path, "--json");
      return run_beyond(argv[0], beyond_options);
    }
    const auto power = [](const std::string& text, const char* option) {
      return static_cast<unsigned>(parse_count(text, option, 34));
    };
    return bench(bench_options.resolve(), power(from, "--from"), power(to, "--to"),
                 power(at, "--at"));
  });
}
