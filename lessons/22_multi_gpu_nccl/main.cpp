// Lesson 22's executable: a sum over every visible GPU (or --gpus K), checked against the CPU
// reference; --scaling runs 1, 2, 4, 8 GPUs; --processes runs one process per GPU. The reduction
// itself is in multi_gpu.cu (its collective in collective.cuh); this file is the command line, the
// checks and the report. --grade grades the collective this build was made with; --hint N a hint;
// --check-answers FILE the exercise's predictions (questions.cpp: committed runs only, no GPU).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/host/grade_main.h"
#include "common/host/grading.h"  // idea_mark
#include "common/host/harness.h"
#include "common/host/hints.h"
#include "common/host/reference.h"
#include "common/host/results.h"
#include "common/host/table.h"
#include "common/host/watchdog.h"
#include "lessons/22_multi_gpu_nccl/multi_gpu.h"
#include "lessons/22_multi_gpu_nccl/questions.h"

namespace rl {
namespace {

constexpr const char* program = "22_multi_gpu_nccl";
constexpr const char* title = "Several GPUs: local reductions, then one NCCL all-reduce";
// 1 GiB a GPU: the local step dominates
constexpr std::uint64_t default_n_per_gpu = std::uint64_t{1} << 28;
constexpr unsigned warmup = 3;

struct Options {
  RunOptions run;
  unsigned gpus = 0;  // 0: every visible GPU
  // with --n-per-gpu: N = this x the number of GPUs (weak scaling)
  std::uint64_t n_per_gpu = 0;
  bool scaling = false;
  bool processes = false;
  int rank = -1;  // >= 0 in a process started by --processes
  unsigned ranks = 0;
  std::string group_id;
};

struct Case {
  unsigned gpus = 0;
  std::uint64_t n = 0;
  std::vector<float> totals;  // as each GPU of this process holds it
  Check check;
  std::optional<Measurement> timing;
  double gbps = 0.0;
};

std::uint64_t n_for(const Options& o, unsigned gpus) {
  // strong scaling: the same N split more ways
  if (o.run.n_given) return o.run.n;
  // weak scaling: the same share per GPU
  return (o.n_per_gpu ? o.n_per_gpu : default_n_per_gpu) * gpus;
}

Case measure(MultiGpuSum& group, const Options& o, std::uint64_t n, bool check_with_reference) {
  Case c{group.ranks(), n, {}, {}, std::nullopt, 0.0};
  group.prepare(n, o.run.seed, o.run.distribution, o.run.block_given ? o.run.block : 1024);
  c.totals = group.run();
  c.check.got = c.totals.front();
  if (check_with_reference) {
    // The same formula the GPUs used, evaluated on the host: no input ever had to cross PCIe.
    c.check.reference = reference_of_stream(o.run.seed, o.run.distribution, 0, n);
    c.check.tolerance = tolerance(c.check.reference, group.depth());
    c.check.verified = within_tolerance(c.check.got, c.check.reference, group.depth());
  }
  if (!o.run.check_only) {
    c.timing = group.time(o.run.reps, warmup);
    c.gbps = gigabytes_per_second(n, c.timing->total_ms.median);
  }
  return c;
}

void print_case(const Case& c, bool checked) {
  const bool agree = std::all_of(c.totals.begin(), c.totals.end(), [&](float t) {
    return std::bit_cast<std::uint32_t>(t) == std::bit_cast<std::uint32_t>(c.totals[0]);
  });
  std::cout << "  " << c.gpus << " GPU" << (c.gpus == 1 ? "" : "s") << ", N = " << c.n << ": total "
            << general(c.check.got, 9);
  if (checked)
    std::cout << ", reference " << general(c.check.reference.sum, 9) << ", |error| "
              << general(std::abs(c.check.got - c.check.reference.sum), 3)
              << (c.check.verified ? " <= " : " > ") << "tolerance "
              << general(c.check.tolerance, 3) << (c.check.verified ? "  verified" : "  WRONG");
  std::cout << (c.totals.size() > 1 ? (agree ? "; every GPU holds it" : "; the GPUs DISAGREE") : "")
            << '\n';
  if (!c.timing) return;
  const Measurement& m = *c.timing;
  std::cout << "    total " << duration(m.total_ms.median) << " median (" << m.total_ms.count
            << " samples): " << fixed(c.gbps, 1) << " GB/s aggregate\n    collective alone "
            << duration(m.collective_ms.median) << "; local:";
  for (const auto& l : m.local)
    std::cout << " GPU " << l.device << " " << duration(l.ms.median) << " (" << l.share.count
              << " floats)";
  std::cout << '\n';
}

nlohmann::json summary_json(const Summary& s) {
  return {{"median_ms", s.median}, {"min_ms", s.min}, {"max_ms", s.max}, {"samples", s.count}};
}

// One run record in common/RESULTS.md's schema, with the multi-GPU fields documented there.
nlohmann::json record(const Case& c, const Options& o, const std::string& variant,
                      double one_gpu_gbps) {
  nlohmann::json j{{"lesson", 22},
                   {"slug", "multi_gpu_nccl"},
                   {"title", title},
                   {"variant", variant},
                   {"backend", "gpu"},
                   {"n", c.n},
                   {"block", o.run.block_given ? o.run.block : 1024},
                   {"dtype", "float32"},
                   {"seed", o.run.seed},
                   {"distribution", to_string(o.run.distribution)},
                   {"result", c.check.got},
                   {"reference", c.check.reference.sum},
                   {"abs_error", std::abs(c.check.got - c.check.reference.sum)},
                   {"tolerance", c.check.tolerance},
                   {"verified", c.check.verified},
                   {"gpus", c.gpus}};
  if (!c.timing) return j;
  const Measurement& m = *c.timing;
  j["time"] = {{"median_ms", m.total_ms.median}, {"min_ms", m.total_ms.min},
               {"max_ms", m.total_ms.max},       {"samples", m.total_ms.count},
               {"calls_per_sample", 1},          {"simulated", false}};
  j["gbps"] = c.gbps;
  j["collective"] = summary_json(m.collective_ms);
  for (const auto& l : m.local)
    j["local"].push_back({{"device", l.device},
                          {"rank", l.rank},
                          {"first", l.share.first},
                          {"count", l.share.count},
                          {"time", summary_json(l.ms)},
                          {"gbps", gigabytes_per_second(l.share.count, l.ms.median)}});
  if (one_gpu_gbps > 0) j["scaling_efficiency"] = c.gbps / (c.gpus * one_gpu_gbps);
  return j;
}

void write_results(const Options& o, const std::vector<nlohmann::json>& runs,
                   const std::vector<std::string>& names) {
  if (o.run.json_path.empty()) return;
  std::string why;
  const auto gpu0 = make_gpu_device(&why);
  if (!gpu0) throw std::runtime_error("cannot describe GPU 0: " + why);
  auto doc = results_document(*gpu0, o.run, runs, {});
  doc["timing"]["cache"] = "one input per GPU, generated there, not rotated (use N >> L2 per GPU)";
  doc["timing"]["warmup"] = warmup;
  doc["gpus"] = names;
  doc["nccl_version"] = nccl_version();
  write_json_file(o.run.json_path, doc);
  std::cout << "  results written to " << o.run.json_path << '\n';
}

// --scaling: the same measurement on 1, 2, 4, 8 GPUs (as many as there are), and a table.
int run_scaling(const Options& o, unsigned gpus) {
  std::vector<nlohmann::json> runs;
  std::vector<Case> cases;
  std::vector<std::string> names;
  bool all_verified = true;
  for (unsigned k = 1; k <= gpus; k *= 2) {
    // a new communicator of k GPUs; the previous one's memory is already freed
    MultiGpuSum group(k);
    cases.push_back(measure(group, o, n_for(o, k), true));
    print_case(cases.back(), true);
    all_verified = all_verified && cases.back().check.verified;
    runs.push_back(record(cases.back(), o, "", cases.front().gbps));
    names = group.gpu_names();
  }
  if (!o.run.check_only) {
    Table table(
        {"GPUs", "N", "total ms", "slowest local ms", "collective ms", "GB/s", "efficiency"});
    for (const Case& c : cases) {
      double slowest = 0.0;
      for (const auto& l : c.timing->local) slowest = std::max(slowest, l.ms.median);
      // efficiency: aggregate GB/s over (GPUs x the one-GPU GB/s); 1.0 is perfect scaling
      table.add({std::to_string(c.gpus), std::to_string(c.n), fixed(c.timing->total_ms.median, 4),
                 fixed(slowest, 4), fixed(c.timing->collective_ms.median, 4), fixed(c.gbps, 1),
                 fixed(c.gbps / (c.gpus * cases.front().gbps), 3)});
    }
    std::cout << '\n';
    table.print(std::cout);
  }
  write_results(o, runs, names);
  return all_verified ? exit_ok : exit_failed;
}

// --processes: this process starts one copy of itself per GPU, hands each the NCCL group id on its
// command line, and waits. The copies find each other through the id (ncclCommInitRank).
int launch_processes(unsigned gpus, int argc, const char* const* argv) {
  const std::string id = new_group_id();
  std::vector<std::vector<std::string>> args(gpus);
  for (unsigned r = 0; r < gpus; ++r) {
    args[r].assign(argv, argv + argc);
    args[r].insert(args[r].end(), {"--rank", std::to_string(r), "--ranks", std::to_string(gpus),
                                   "--group-id", id});
  }
  std::cout << "  one process per GPU: starting " << gpus << " copies of this program\n"
            << std::flush;
  std::vector<pid_t> children;
  for (unsigned r = 0; r < gpus; ++r) {
    std::vector<char*> child_argv;  // built before fork: the child only calls exec
    for (auto& a : args[r]) child_argv.push_back(a.data());
    child_argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      execv("/proc/self/exe", child_argv.data());
      _exit(127);  // exec failed: the parent reports it
    }
    children.push_back(pid);
  }
  int worst = exit_ok;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : exit_failed;
    if (code != exit_ok) worst = code == 127 ? exit_failed : std::max(worst, code);
  }
  return worst;
}

// A process started by --processes: rank `rank` of the group, on GPU `rank`. Rank 0 checks and
// reports.
int run_rank(const Options& o) {
  MultiGpuSum group(static_cast<unsigned>(o.rank), o.ranks, o.group_id);
  const Case c = measure(group, o, n_for(o, o.ranks), o.rank == 0);
  if (o.rank != 0) {
    const auto& l = c.timing ? c.timing->local.front() : LocalTiming{};
    std::cout << "  rank " << o.rank << " (GPU " << o.rank << "): total " << general(c.check.got, 9)
              << (c.timing ? ", local " + duration(l.ms.median) : std::string()) << '\n';
    return exit_ok;
  }
  print_case(c, true);
  write_results(o, {record(c, o, "one_process_per_gpu", 0.0)}, group.gpu_names());
  return c.check.verified ? exit_ok : exit_failed;
}

// The trusted side of one graded sum: `bytes` holds every GPU's total, then every GPU's partial.
// With the all-reduce (root -1) every GPU must hold the right total, the same bits; with a reduce
// to `root`, that GPU the right total and every other GPU its poison (run() writes NaN first).
std::optional<std::string> judged_totals(const std::vector<unsigned char>& bytes, unsigned gpus,
                                         int root, const Reference& ref, std::uint64_t depth) {
  if (bytes.size() != 2 * gpus * sizeof(float))
    return "handed back " + std::to_string(bytes.size() / sizeof(float)) +
           " floats for the totals and partials of " + std::to_string(gpus) + " GPUs";
  std::vector<float> totals(gpus), partials(gpus);
  std::memcpy(totals.data(), bytes.data(), gpus * sizeof(float));
  std::memcpy(partials.data(), bytes.data() + gpus * sizeof(float), gpus * sizeof(float));
  // The partials first: a wrong local reduction is lesson 12's kernel as this build has it (in a
  // student build, the student's lesson 12), not the collective's fault.
  double partial_sum = 0.0;
  for (const float p : partials) partial_sum += p;
  if (!within_tolerance(partial_sum, ref, depth))
    return "the GPUs' partials add up to " + general(partial_sum, 9) + ", expected " +
           general(ref.sum, 9) +
           " before the collective ran: each GPU's local reduction is lesson 12's single pass as "
           "this build has it (in a student build, your lesson 12 file, or its exercise): grade "
           "lesson 12 first";
  const std::size_t first = root < 0 ? 0 : static_cast<std::size_t>(root);
  const std::string gpu = "GPU " + std::to_string(first);
  constexpr std::uint32_t poison = 0xFFFFFFFFu;
  if (std::bit_cast<std::uint32_t>(totals[first]) == poison)
    return gpu + (root < 0 ? "'s" : ", the root, has its") +
           " total never written: it still holds the poison NaN that run() wrote before the sum";
  if (!within_tolerance(totals[first], ref, depth))
    return (root < 0 ? std::string() : gpu + ", the root: ") +
           (ref.exact
                ? "expected exactly " + general(ref.sum, 9) +
                      " (spikes: every partial sum is exact), got " + general(totals[first], 9) +
                      ": a block's or a GPU's share was skipped or added twice"
                : "expected " + general(ref.sum, 9) + " (within " +
                      general(tolerance(ref, depth), 3) + "), got " + general(totals[first], 9));
  for (std::size_t k = 0; k < totals.size(); ++k) {
    if (k == first) continue;
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(totals[k]);
    if (root < 0 && bits != std::bit_cast<std::uint32_t>(totals[0]))
      return "GPU 0 holds " + general(totals[0], 9) + " but GPU " + std::to_string(k) + " holds " +
             general(totals[k], 9) + ": every GPU must hold the same total";
    if (root >= 0 && bits != poison)
      return std::string(idea_mark) + gpu + " is the root, but GPU " + std::to_string(k) +
             "'s total was written too (" + general(totals[k], 9) +
             "): a reduce to the root leaves every other GPU's output as it was";
  }
  return std::nullopt;
}

// --grade: sums on one GPU, then on every visible GPU (when more than one), with the all-reduce and
// then with the exercise's reduce to the last GPU, each judged by judged_totals (grade_main.h's
// grade_runs: CUDA starts only in the watched child, since a process that forks after starting
// CUDA cannot use it in the child). Without a GPU there is nothing to grade: SKIPPED (exit 77),
// which is what a machine without one reports.
int grade(const std::string& program_path, const Options& o) {
  return grade_runs(
      std::cout, program_path, 22, "multi_gpu_nccl", std::string(collective_source()), o.run,
      [&](Device& d) -> std::optional<std::vector<GradedRun>> {
        std::string why;
        const unsigned visible = d.backend() == Backend::sim ? 0 : visible_gpus(&why);
        if (visible == 0) return std::nullopt;  // NCCL has no simulator
        std::vector<unsigned> group_sizes{1};
        if (visible > 1) group_sizes.push_back(visible);
        const unsigned block = o.run.block_given ? o.run.block : 1024;
        // One group at a time, made at its first case (NCCL's communicators over the same GPUs).
        struct Current {
          unsigned gpus = 0;
          std::unique_ptr<MultiGpuSum> group;
        };
        auto current = std::make_shared<Current>();
        std::vector<GradedRun> runs;
        for (const unsigned gpus : group_sizes) {
          // Uniform data with two seeds, then exact spikes (common/input_value.h): a lost or
          // doubled block, or GPU share, hides inside the rounding bound on uniform data but not
          // there.
          const std::pair<std::uint64_t, Distribution> inputs[] = {
              {graded_seed(1, o.run.grade_seed), Distribution::uniform},
              {graded_seed(20240601, o.run.grade_seed), Distribution::uniform},
              {graded_seed(1, o.run.grade_seed), Distribution::spikes}};
          // The all-reduce (root -1), then the exercise's reduce to the last GPU.
          for (const int root : {-1, static_cast<int>(gpus) - 1})
            for (const std::uint64_t n :
                 {std::uint64_t{1000}, (std::uint64_t{1} << 20) + 3, (std::uint64_t{1} << 24) + 3})
              for (const auto& [seed, dist] : inputs) {
                const std::string what =
                    std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s") +
                    (root < 0 ? std::string() : ", reduce to GPU " + std::to_string(root)) +
                    ", n=" + std::to_string(n) + " seed=" + std::to_string(seed) + " " +
                    std::string(to_string(dist));
                runs.push_back(
                    {what, false,
                     [current, gpus, root, n, seed, dist,
                      block](std::vector<unsigned char>& bytes) {
                       if (current->gpus != gpus) {
                         current->group.reset();
                         current->group = std::make_unique<MultiGpuSum>(gpus);
                         current->gpus = gpus;
                       }
                       current->group->prepare(n, seed, dist, block);
                       // every GPU's total, then every GPU's partial (before the collective)
                       std::vector<float> handed = current->group->run(root);
                       const std::vector<float> partials = current->group->partials();
                       handed.insert(handed.end(), partials.begin(), partials.end());
                       bytes.resize(handed.size() * sizeof(float));
                       std::memcpy(bytes.data(), handed.data(), bytes.size());
                     },
                     [gpus, root, n, seed, dist, block, shape = d.shape()](
                         const std::vector<unsigned char>& bytes) -> std::optional<std::string> {
                       return judged_totals(bytes, gpus, root,
                                            reference_of_stream(seed, dist, 0, n),
                                            multi_gpu_depth(n, gpus, block, shape));
                     }});
              }
        }
        return runs;
      });
}

int lesson(int argc, const char* const* argv) {
  CLI::App app(title, program);
  // No --trace (lesson 12's kernel does the local work: trace it there) and no simulator options
  // (NCCL has no simulator).
  RunOptionSet set{(lesson_options & ~(opt_trace | opt_sim | opt_racecheck)) | opt_answers};
  set.n_help =
      "floats in all, split over the GPUs: 1000, 2^30 or 2^30+3 (default: 2^28 per GPU, see "
      "--n-per-gpu)";
  RunOptionParser shared(app, set);
  Options o;
  std::string gpus_text, per_gpu_text;
  app.add_option("--gpus", gpus_text,
                 "how many GPUs (default: every visible one); with --scaling, the most");
  app.add_option("--n-per-gpu", per_gpu_text,
                 "floats per GPU, so N = this x GPUs (default 2^28 unless --n is given)");
  app.add_flag("--scaling", o.scaling,
               "run 1, 2, 4, 8 GPUs (up to --gpus) and print a scaling table");
  app.add_flag("--processes", o.processes,
               "one process per GPU, started by this one, instead of one process for all");
  // Set by --processes for the copies it starts; not for people.
  app.add_option("--rank", o.rank)->group("");
  app.add_option("--ranks", o.ranks)->group("");
  app.add_option("--group-id", o.group_id)->group("");
  if (!parse_command_line(app, argc, argv)) return exit_ok;
  o.run = shared.resolve();
  if (o.run.hint) {
    print_hint(std::cout, 22, o.run.hint);
    return exit_ok;
  }
  // Before anything looks for a GPU: the answers come from the committed runs alone.
  if (!o.run.check_answers.empty())
    return check_answers(std::cout, o.run.check_answers, collective_cost::questions());
  if (o.run.grade) return grade(argv[0], o);

  if (o.run.backend == Backend::sim)
    throw UsageError(
        "lesson 22 has no simulator version: NCCL moves data between real GPUs "
        "(run lesson 12 with --backend sim to watch the local step)");
  std::uint64_t gpus_asked = 0;
  if (!gpus_text.empty()) {
    gpus_asked = parse_count(gpus_text, "--gpus", 1024);
    if (gpus_asked == 0) throw UsageError("--gpus must be at least 1");
  }
  if (!per_gpu_text.empty()) {
    o.n_per_gpu = parse_count(per_gpu_text, "--n-per-gpu");
    if (o.run.n_given)
      throw UsageError("give --n (the whole input) or --n-per-gpu (each GPU's share), not both");
  }
  if (o.scaling && o.processes)
    throw UsageError("--scaling runs in one process; leave out --processes");
  if (o.rank >= 0) return run_rank(o);

  std::string why;
  const unsigned visible = visible_gpus(&why);
  if (visible == 0)
    throw UsageError("lesson 22 needs at least one NVIDIA GPU (NCCL has no simulator): " + why);
  unsigned gpus = visible;
  if (gpus_asked > visible)
    throw UsageError("--gpus " + gpus_text + " is more than the " + std::to_string(visible) +
                     " GPUs visible");
  if (gpus_asked) gpus = static_cast<unsigned>(gpus_asked);
  if (o.n_per_gpu > ~std::uint64_t{0} / gpus)
    throw UsageError("--n-per-gpu x GPUs does not fit in 64 bits");
  std::cout << "backend: gpu (" << gpus << " of " << visible << " visible GPUs, NCCL "
            << nccl_version() << ")\n";
  if (visible == 1)
    std::cout << "  only one GPU is visible: the lesson runs (the all-reduce of one GPU is a "
                 "copy), but shows no scaling\n";
  std::cout << "lesson " << program << ": seed " << o.run.seed << " ("
            << to_string(o.run.distribution) << ")\n";
  if (o.scaling) return run_scaling(o, gpus);
  if (o.processes) return launch_processes(gpus, argc, argv);

  MultiGpuSum group(gpus);
  const Case c = measure(group, o, n_for(o, gpus), true);
  print_case(c, true);
  write_results(o, {record(c, o, "", 0.0)}, group.gpu_names());
  return c.check.verified ? exit_ok : exit_failed;
}

}  // namespace
}  // namespace rl

int main(int argc, char** argv) {
  return rl::guarded([&] { return rl::lesson(argc, argv); });
}
