// reducelab: the whole ladder in one program.
//   reducelab ladder   every lesson at one size, one table (the README's main job)
//   reducelab bench    every lesson over a range of sizes, with the ceiling and CUB, into one JSON file
//   reducelab beyond   lessons 13-16 (operators and types, rows, columns, any axes): their tables, one JSON
//   reducelab scaling  lesson 17 over 1, 2, 4, 8 GPUs (as present): local, collective, aggregate GB/s
//   reducelab bugs     lesson 18, a side lesson: nine classic mistakes, one line each (18_common_bugs)
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "common/host/harness.h"
#include "common/host/results.h"
#include "common/host/table.h"
#include "common/runner/beyond.h"
#include "common/runner/ladder.h"

namespace {

using namespace rl;

bool all_verified(const std::vector<CaseResult>& results) {
  for (const auto& r : results)
    if (!r.check.verified) return false;
  return !results.empty();
}

int ladder(const RunOptions& o) {
  auto device = open_device(o, std::cout);
  const std::uint64_t n = o.n_given ? o.n : default_n(device->backend());
  Session session(*device, o);
  session.prepare(n);
  std::cout << "ladder: N = " << n << " floats (" << general(static_cast<double>(n) * 4.0 / (1 << 20), 4) << " MiB), block " << o.block
            << (o.block_given ? "" : " (or the lesson's own)")
            << ", seed " << o.seed << " (" << to_string(o.distribution) << "), median of " << session.sampling().samples << " samples\n\n";
  const Baseline* baseline = o.check_only ? nullptr : &session.baseline();
  const auto results = run_ladder(session, o.block, o.block_given, !o.check_only);
  print_ladder_table(std::cout, results, baseline);
  if (!o.json_path.empty()) {
    std::vector<nlohmann::json> runs;
    for (const auto& r : results) runs.push_back(to_json(r, o, baseline));
    write_json_file(o.json_path, results_document(*device, o, runs, baseline ? std::vector{to_json(*baseline)}
                                                                            : std::vector<nlohmann::json>{}));
  }
  return all_verified(results) ? exit_ok : exit_failed;
}

int bench(const RunOptions& o, unsigned from, unsigned to, unsigned at) {
  if (from > to || to > 34) throw UsageError("--from and --to must satisfy from <= to <= 34 (powers of two)");
  if (o.json_path.empty()) throw UsageError("bench needs --json FILE to write its results to");
  auto device = open_device(o, std::cout);
  Session session(*device, o);
  std::vector<nlohmann::json> runs, baselines;
  std::vector<CaseResult> at_results;
  const Baseline* at_baseline = nullptr;
  Baseline kept;
  bool ok = true;
  for (unsigned e = from; e <= to; ++e) {
    std::cerr << "\rbench: N = 2^" << e << " (" << (e - from + 1) << " of " << (to - from + 1) << ")   " << std::flush;
    session.prepare(std::uint64_t{1} << e);
    const Baseline& b = session.baseline();
    baselines.push_back(to_json(b));
    const auto results = run_ladder(session, o.block, o.block_given, true);
    ok = ok && all_verified(results);
    for (const auto& r : results) runs.push_back(to_json(r, o, &b));
    if (e == at) {
      at_results = results;
      kept = b;
      at_baseline = &kept;
    }
  }
  std::cerr << "\rbench: done                              \n";
  write_json_file(o.json_path, results_document(*device, o, runs, baselines));
  if (!at_results.empty()) {
    std::cout << "\nladder at N = 2^" << at << ":\n\n";
    print_ladder_table(std::cout, at_results, at_baseline);
  }
  std::cout << "\nwrote " << runs.size() << " results to " << o.json_path << '\n';
  return ok ? exit_ok : exit_failed;
}

// Lessons 17 and 18 are programs of their own (17 links NCCL; 18 is not a rung of the ladder); the
// runner hands its arguments on to one, from the folder the runner itself is in.
int hand_on(const char* self, const std::string& lesson, const std::vector<std::string>& first,
            const std::vector<std::string>& args) {
  const auto exe = std::filesystem::absolute(self).parent_path() / lesson;
  if (!std::filesystem::exists(exe)) throw UsageError(lesson + " was not built here");
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
  const auto exe = std::filesystem::absolute(self).parent_path() / "17_multi_gpu_nccl";
  if (!std::filesystem::exists(exe))
    throw UsageError("scaling: lesson 17 was not built here (it needs NCCL, which configure did not find)");
  return hand_on(self, "17_multi_gpu_nccl", {"--scaling"}, args);
}

}  // namespace

int main(int argc, char** argv) {
  return guarded([&] {
    CLI::App app("ReduceLab: the parallel-reduction ladder, checked and measured", "reducelab");
    app.require_subcommand(1);
    auto* ladder_cmd = app.add_subcommand("ladder", "run every lesson at one size and print the ladder table");
    RunOptionParser ladder_options(*ladder_cmd);
    auto* bench_cmd = app.add_subcommand("bench", "run every lesson over N = 2^from .. 2^to and write one JSON file");
    RunOptionParser bench_options(*bench_cmd);
    unsigned from = 10, to = 28, at = 24;
    bench_cmd->add_option("--from", from, "smallest size, as a power of two")->capture_default_str();
    bench_cmd->add_option("--to", to, "largest size, as a power of two")->capture_default_str();
    bench_cmd->add_option("--at", at, "print the ladder table at this power of two")->capture_default_str();
    auto* beyond_cmd = app.add_subcommand(
        "beyond", "lessons 13-16 (operators x types, rows, columns, any axes), each at its own sizes; --json FILE");
    BeyondOptions beyond_options;
    beyond_cmd->add_option("--backend", beyond_options.backend, "gpu or sim (default: the GPU when one is visible)")
        ->check(CLI::IsMember({"gpu", "sim"}));
    beyond_cmd->add_option("--baseline", beyond_options.baseline_path,
                           "PyTorch's times for lessons 14-16 (tests/device/torch_baselines.py --out FILE)");
    beyond_cmd->add_option("--json", beyond_options.json_path, "write every lesson's table into this file (reducelab.beyond)");
    beyond_cmd->add_flag("--check-only", beyond_options.check_only, "verify, don't time");
    auto* scaling_cmd = app.add_subcommand(
        "scaling", "lesson 17: 2^28 floats per GPU (or --n-per-gpu) on 1, 2, 4, 8 GPUs as present; --json FILE");
    scaling_cmd->allow_extras();
    auto* bugs_cmd = app.add_subcommand(
        "bugs", "lesson 18 (a side lesson): nine classic mistakes, on the GPU or the simulator, one line each; "
                "its options follow (--list, --bug NAME, --fixed, --backend)");
    bugs_cmd->allow_extras();
    if (!parse_command_line(app, argc, argv)) return exit_ok;
    if (*ladder_cmd) return ladder(ladder_options.resolve());
    if (*scaling_cmd) return scaling(argv[0], scaling_cmd->remaining());
    if (*bugs_cmd) return hand_on(argv[0], "18_common_bugs", {}, bugs_cmd->remaining());
    if (*beyond_cmd) return run_beyond(argv[0], beyond_options);
    return bench(bench_options.resolve(), from, to, at);
  });
}
