// Lesson 18's executable: every operator on every element type, verified against the CPU reference,
// then timed next to its own type's sum and CUB's counterpart. --json FILE writes the table
// (schema reducelab.ops, common/RESULTS.md). --grade grades the kernel this build was made with
// (the solution, or in a student build the exercise or a submission); --hint N prints a hint;
// --check-answers FILE checks the exercise's predictions (questions.cpp).
#include <CLI/CLI.hpp>
#include <cstring>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/grade_main.h"
#include "common/host/grading.h"  // idea_mark
#include "common/host/harness.h"
#include "common/host/results.h"
#include "common/host/sim_budget.h"
#include "common/host/table.h"
#include "common/host/typed_outputs.h"
#include "common/host/watchdog.h"
#include "lessons/18_operators_and_types/ops_api.h"
#include "lessons/18_operators_and_types/questions.h"

using namespace rl;

namespace {

// This lesson's number: its grade's and its hints' (exercise/HINTS.md).
constexpr int lesson = 18;

// The graded cases: sizes around a warp, a block and a 16-byte load, a misaligned start (one
// element past 16 bytes: a scalar head), and plans of several blocks with several loads a thread.
struct GradedCase {
  std::uint64_t n;
  unsigned offset;  // elements past a 16-byte boundary
};
constexpr GradedCase graded_cases[] = {
    {1, 0},    {31, 0},   {33, 0},    {255, 0},   {257, 0},
    {1000, 0}, {1000, 1}, {20005, 1}, {65537, 0}, {(1u << 18) + 3, 0}};

// An operator's output as the grader hands it over: its value's and its index's bytes.
std::vector<unsigned char> output_bytes(const OpValue& v) {
  std::vector<unsigned char> bytes(sizeof v.value + sizeof v.index);
  std::memcpy(bytes.data(), &v.value, sizeof v.value);
  std::memcpy(bytes.data() + sizeof v.value, &v.index, sizeof v.index);
  return bytes;
}

// The idea's case: enough blocks that a finish walked by one thread shows in the depth.
constexpr std::uint64_t idea_n = std::uint64_t{1} << 20;

// Why the depth the kernel measured (`bytes`, one uint32) misses the lesson's idea, or nullopt.
std::optional<std::string> depth_failure(const std::vector<unsigned char>& bytes,
                                         std::uint64_t plan) {
  std::uint32_t got = 0;
  if (bytes.size() != sizeof got)
    return "handed back " + std::to_string(bytes.size()) + " bytes for one depth";
  std::memcpy(&got, bytes.data(), sizeof got);
  if (got == ~std::uint32_t{0})
    return "the result was never written: it still holds the poison 0xFFFFFFFF written before the "
           "run";
  if (got <= plan) return std::nullopt;
  return std::string(idea_mark) + "the result came out of a chain of " + std::to_string(got) +
         " combines, one after another, where the plan's longest chain is " + std::to_string(plan) +
         ": the last block shares the partials among its threads and joins them in "
         "block_reduce's tree; one thread folding every partial alone makes a chain as long as the "
         "blocks are many";
}

// Every operator on every type over every graded case (grade_main.h's grade_runs), stopping at the
// first wrong answer; the failure line names the operator, type, n, seed, offset, expected and got.
int grade(const std::string& program_path, const RunOptions& options) {
  return grade_runs(
      std::cout, program_path, lesson, "operators_and_types",
      std::string(ops_kernels(Backend::sim)->source), options,
      [&](Device& d) -> std::optional<std::vector<GradedRun>> {
        const OpsKernels* k = ops_kernels(d.backend());
        if (!k) return std::nullopt;
        std::vector<GradedRun> runs;
        for (const GradedCase& c : graded_cases)
          for (const DType t : all_dtypes) {
            const std::uint64_t seed = graded_seed(13 + c.n, options.grade_seed);
            for (const ReduceOp op : all_ops) {
              std::ostringstream what;
              what << to_string(op) << " of " << to_string(t) << ", n=" << c.n << " seed=" << seed;
              if (c.offset) what << " at " << c.offset << " element past 16 bytes";
              runs.push_back(
                  {what.str(), false,
                   [&d, c, t, seed, op](std::vector<unsigned char>& bytes) {
                     const std::vector<std::byte> host = ops_input(t, c.n, seed);
                     DeviceBuffer buffer(d, host.size() + 16 + c.offset * dtype_bytes(t));
                     // allocations are 256-byte aligned
                     std::byte* at = buffer.get<std::byte>() + c.offset * dtype_bytes(t);
                     d.upload(at, host.data(), host.size());
                     bytes = output_bytes(run_op(d, op, t, at, c.n));
                   },
                   [k, shape = d.shape(), c, t, seed,
                    op](const std::vector<unsigned char>& bytes) -> std::optional<std::string> {
                     OpValue got;
                     if (bytes.size() != sizeof got.value + sizeof got.index)
                       return "handed back " + std::to_string(bytes.size()) +
                              " bytes for one output";
                     std::memcpy(&got.value, bytes.data(), sizeof got.value);
                     std::memcpy(&got.index, bytes.data() + sizeof got.value, sizeof got.index);
                     const std::vector<std::byte> host = ops_input(t, c.n, seed);
                     const OpReference ref =
                         typed_reference(op, t, host.data(), c.n, k->depth(op, t, c.n, shape));
                     if (matches(ref, got, op)) return std::nullopt;
                     return "expected " + describe(ref.expected, op) +
                            (ref.tolerance > 0 ? " (within " + general(ref.tolerance, 3) + ")"
                                               : std::string()) +
                            ", got " + describe(got, op);
                   }});
            }
          }
        // The idea: at 2^20 the grid has many blocks, and the Depth operator counts the chain of
        // combines behind the result; the finish must share the partials out, not walk them alone.
        const std::uint64_t seed = graded_seed(13, options.grade_seed);
        runs.push_back(
            {"the depth of float32, n=" + std::to_string(idea_n) + " seed=" + std::to_string(seed),
             false,
             [&d, seed](std::vector<unsigned char>& bytes) {
               const std::vector<std::byte> host = ops_input(DType::f32, idea_n, seed);
               DeviceBuffer buffer(d, host.size());
               d.upload(buffer.get(), host.data(), host.size());
               const std::uint32_t depth = run_depth(d, buffer.get(), idea_n);
               bytes.resize(sizeof depth);
               std::memcpy(bytes.data(), &depth, sizeof depth);
             },
             [k, shape = d.shape()](
                 const std::vector<unsigned char>& bytes) -> std::optional<std::string> {
               return depth_failure(bytes, k->depth(ReduceOp::sum, DType::f32, idea_n, shape));
             }});
        return runs;
      });
}

int run(int argc, char** argv) {
  CLI::App app{"Lesson 18: operators and element types in one single-pass reduction",
               "18_operators_and_types"};
  std::string ops_text = "sum,max,min,mean,variance,argmax,argmin",
              types_text = "float32,float64,float16,bfloat16,int32";
  RunOptionSet set{opt_n | opt_reps | opt_seed | opt_json | opt_check_only | opt_backend | opt_sim |
                   opt_grade | opt_grade_record | opt_answers};
  set.n_help =
      "elements per reduction: 1000, 2^28, 2^24+3 (default: 2^28 on a GPU, 2^16 simulated)";
  set.json_help = "write the table to this file (schema reducelab.ops)";
  const RunOptionParser shared(app, set);
  app.add_option("--ops", ops_text, "comma-separated operators")->capture_default_str();
  app.add_option("--types", types_text, "comma-separated element types")->capture_default_str();
  if (!parse_command_line(app, argc, argv)) return exit_ok;
  const RunOptions o = shared.resolve();
  if (print_hint_if_asked(o, lesson)) return exit_ok;
  if (!o.check_answers.empty())
    return check_answers(std::cout, o.check_answers, widened::questions());
  if (o.grade) return grade(argv[0], o);
  const auto ops = parse_op_list(ops_text);
  const auto types = parse_dtype_list(types_text);
  if (o.n_given && o.n == 0)
    throw UsageError(
        "--n: the table needs at least one element (the empty sum is 0, the rest have no value)");
  auto device = open_device(o, std::cout);
  const bool gpu = device->backend() == Backend::gpu;
  const std::uint64_t n = o.n_given ? o.n : gpu ? std::uint64_t{1} << 28 : std::uint64_t{1} << 16;
  const std::uint64_t seed = o.seed;
  const bool check_only = o.check_only;
  const OpsKernels& kernels = *ops_kernels(device->backend());
  const OpsCub* cub = gpu ? ops_cub() : nullptr;
  const Sampling sampling{samples(o, device->backend()), 0.2, gpu ? 3u : 1u};
  // Before any work: the widest type's input must fit (with its host copy, on the simulator), and a
  // simulated run must finish in reasonable time.
  std::size_t widest = 0;
  for (const DType t : types) widest = std::max(widest, dtype_bytes(t));
  const double input_bytes = static_cast<double>(n) * static_cast<double>(widest) * (gpu ? 1 : 2);
  if (input_bytes > static_cast<double>(device->free_bytes()) / 2)
    throw UsageError("--n " + std::to_string(n) + ": " +
                     std::to_string(static_cast<std::uint64_t>(input_bytes) >> 20) +
                     " MiB of input does not fit in the " +
                     (gpu ? "device's memory" : "memory the simulator has") + " (" +
                     std::to_string(device->free_bytes() >> 20) +
                     " MiB free, half of it for the input)");
  if (!gpu) {
    const std::uint64_t runs =
        ops.size() * types.size() * (1 + (check_only ? 0 : sampling.samples));
    if (static_cast<double>(n) * static_cast<double>(runs) >=
        static_cast<double>(sim_measure_above)) {
      constexpr std::uint64_t most = std::uint64_t{1} << 17;
      DeviceBuffer in(*device, most * sizeof(float));
      device->poison(in.get(), most * sizeof(float));
      const SimCost cost = measure_sim_cost(
          [&](std::uint64_t e) { run_op(*device, ReduceOp::sum, DType::f32, in.get(), e); });
      SimEstimate estimate;
      estimate.add(cost, n, runs);
      check_sim_estimate(estimate, kernel_runs_text(runs) + " over " + size_text(n) + " elements",
                         o, std::cout);
    }
  }
  std::cout << "lesson 18_operators_and_types: N = " << n << ", seed " << seed << "\n";

  Table table({"op", "type", "time", "GB/s", "% of sum", "x CUB", "CUB call", "check"});
  std::vector<nlohmann::json> runs;
  bool all_verified = true;
  for (const DType t : types) {
    const std::size_t bytes = n * dtype_bytes(t);
    std::vector<std::byte> host(bytes);
    fill_typed(host.data(), t, n, seed, Distribution::uniform);
    // Rotated copies: each timed call reads a copy the previous calls have pushed out of L2.
    const std::size_t copies = std::max<std::size_t>(
        1, std::min(device->rotation_copies(bytes),
                    device->free_bytes() / 2 / std::max<std::size_t>(bytes, 1)));
    std::vector<DeviceBuffer> inputs;
    for (std::size_t c = 0; c < copies; ++c) {
      inputs.emplace_back(*device, bytes);
      device->upload(inputs.back().get(), host.data(), bytes);
    }
    double sum_ms = 0.0;
    for (const ReduceOp op : ops) {
      const OpValue got = run_op(*device, op, t, inputs[0].get(), n);
      const OpReference ref =
          typed_reference(op, t, host.data(), n, kernels.depth(op, t, n, device->shape()));
      const bool verified = matches(ref, got, op);
      all_verified = all_verified && verified;
      nlohmann::json rec = {{"op", to_string(op)},
                            {"dtype", to_string(t)},
                            {"n", n},
                            {"bytes", bytes},
                            {"result", got.value},
                            {"reference", ref.expected.value},
                            {"tolerance", ref.tolerance},
                            {"verified", verified}};
      if (has_index(op)) rec["index"] = got.index, rec["reference_index"] = ref.expected.index;
      std::vector<std::string> row{
          std::string(to_string(op)),     std::string(to_string(t)), "-", "-", "-", "-", "-",
          verified ? "verified" : "WRONG"};
      if (!check_only) {
        DeviceBuffer scratch(*device, kernels.scratch_bytes(op, t, n, device->shape())),
            out(*device, ops_out_bytes);
        const Timing mine = device->time(
            [&](std::size_t k) {
              kernels.reduce(op, t, inputs[k].get(), n, scratch.get(), out.get(), device->shape(),
                             device->stream());
            },
            copies, sampling);
        rec["time"] = to_json(mine);
        row[2] = duration(mine.ms.median);
        if (op == ReduceOp::sum) sum_ms = mine.ms.median;
        if (!mine.simulated) {
          const double gbps = static_cast<double>(bytes) / (mine.ms.median * 1e6);
          rec["gbps"] = gbps;
          row[3] = fixed(gbps, 0);
          if (sum_ms > 0)
            rec["pct_of_sum"] = 100.0 * sum_ms / mine.ms.median,
            row[4] = fixed(100.0 * sum_ms / mine.ms.median, 1);
        }
        if (cub) {
          DeviceBuffer cub_scratch(*device, cub->scratch_bytes(op, t, n)),
              cub_out(*device, ops_out_bytes);
          const Timing theirs = device->time(
              [&](std::size_t k) {
                cub->reduce(op, t, inputs[k].get(), n, cub_scratch.get(), cub_scratch.bytes(),
                            cub_out.get(), device->stream());
              },
              copies, sampling);
          rec["cub"] = {{"call", cub->name(op, t)}, {"time", to_json(theirs)}};
          rec["vs_cub"] = theirs.ms.median / mine.ms.median;
          row[5] = fixed(theirs.ms.median / mine.ms.median, 2);
          row[6] = cub->name(op, t);
        }
      }
      table.add(row);
      runs.push_back(rec);
    }
  }
  table.print(std::cout);
  if (!gpu && !check_only) std::cout << "(simulated times: no GB/s, no CUB)\n";
  if (!o.json_path.empty()) {
    nlohmann::json doc = table_record("reducelab.ops", *device, seed, sampling.samples);
    doc["runs"] = runs;
    write_json_file(o.json_path, doc);
  }
  return all_verified ? exit_ok : exit_failed;
}

}  // namespace

int main(int argc, char** argv) {
  return guarded([&] { return run(argc, argv); });
}
