// Lesson 21's executable: reductions over any axes of a strided tensor, verified against the CPU
// reference, then timed next to CUB's nearest call and (with --baseline) PyTorch's torch.sum.
// --explain prints each plan; --json FILE writes the table (schema reducelab.axes,
// common/RESULTS.md). --grade grades the plan this build was made with (axes_plan.cpp, or the
// exercise or a submission) and the reductions made with it; --hint N prints a hint;
// --check-answers FILE checks the exercise's predictions (questions.cpp).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/grade_main.h"
#include "common/host/harness.h"
#include "common/host/results.h"
#include "common/host/sim_budget.h"
#include "common/host/table.h"
#include "common/host/typed_outputs.h"
#include "lessons/21_any_axes/axes_api.h"
#include "lessons/21_any_axes/axes_cases.h"
#include "lessons/21_any_axes/questions.h"

using namespace rl;

namespace {

// This lesson's number: its grade's and its hints' (exercise/HINTS.md).
constexpr int lesson = 21;

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

// "64,128,2^10": sizes or strides; every item a whole number (2^k allowed).
std::vector<std::int64_t> parse_dims(const std::string& text, const char* what) {
  std::vector<std::int64_t> out;
  for (const std::string& item : split_commas(text)) {
    if (item.empty())
      throw UsageError(std::string("--") + what +
                       ": expected whole numbers such as 64,128,2^10, got an empty one in '" +
                       text + "'");
    const bool negative = item[0] == '-';
    // parse_count's messages: not a number, or too large.
    const std::uint64_t v =
        parse_count(negative ? std::string_view(item).substr(1) : std::string_view(item),
                    std::string("--") + what);
    out.push_back(negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v));
  }
  if (out.empty()) throw UsageError(std::string("--") + what + ": no dimensions given");
  return out;
}

// "0,2"; "none" reduces nothing (an empty --axes is refused with the other empty values).
std::vector<int> parse_axes(const std::string& text) {
  std::vector<int> out;
  if (text == "none" || text.empty()) return out;
  for (const std::string& item : split_commas(text)) {
    try {
      std::size_t used = 0;
      const int a = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      out.push_back(a);
    } catch (const std::exception&) {
      throw UsageError("--axes: expected axis numbers such as 0,2, got '" + item + "'");
    }
  }
  return out;
}

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}
std::string join_axes(const std::vector<int>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

// PyTorch's time for the same case from tests/device/torch_baselines.py's JSON, in ms.
std::optional<double> torch_ms(const nlohmann::json& baseline,
                               const std::vector<std::int64_t>& shape, std::vector<int> axes,
                               DType t, ReduceOp op) {
  if (!baseline.is_object() || !baseline.contains("entries")) return std::nullopt;
  std::sort(axes.begin(), axes.end());
  for (const auto& e : baseline["entries"]) {
    if (e.value("dtype", "") != to_string(t) || e.value("op", "") != to_string(op)) continue;
    if (e.value("shape", std::vector<std::int64_t>{}) != shape) continue;
    auto dims = e.value("dims", std::vector<int>{});
    std::sort(dims.begin(), dims.end());
    if (dims == axes && e.contains("median_us")) return e["median_us"].get<double>() / 1000.0;
  }
  return std::nullopt;
}

// The plan first (its merged axes and strategy on hand-checked layouts: an unmerged plan still
// reduces right, only slowly), then every reduction case with each operator and type, checked
// output by output; cases up to 2^15 elements run again on the simulator in the other thread
// orders.
int grade(const std::string& program_path, const RunOptions& o) {
  constexpr std::uint64_t rerun_elements = std::uint64_t{1} << 15;
  return grade_runs(
      std::cout, program_path, lesson, "any_axes", std::string(axes_kernels(Backend::sim)->source),
      o, [&](Device& d) -> std::optional<std::vector<GradedRun>> {
        if (!axes_kernels(d.backend())) return std::nullopt;
        std::vector<GradedRun> runs;
        for (const PlanCase& c : axes_plan_cases())
          runs.push_back({"the plan of " + describe(c.layout), false,
                          [c](std::vector<unsigned char>& bytes) { bytes = plan_case_outputs(c); },
                          [c](const std::vector<unsigned char>& bytes) {
                            return plan_outputs_failure(c, bytes);
                          }});
        for (const AxesCase& c : axes_graded_cases()) {
          const AxesLayout& l = c.layout;
          const bool small = plan_axes(l.sizes, l.strides, l.axes).input_span <= rerun_elements;
          const std::uint64_t seed = graded_seed(c.seed, o.grade_seed);
          for (const DType t : c.types)
            for (const ReduceOp op : c.ops)
              runs.push_back({describe(l, op, t, seed, c.offset), small,
                              [&d, c, op, t, seed](std::vector<unsigned char>& bytes) {
                                bytes = axes_case_outputs(d, c.layout, op, t, seed, c.offset);
                              },
                              [b = d.backend(), shape = d.shape(), c, op, t,
                               seed](const std::vector<unsigned char>& bytes) {
                                return axes_outputs_failure(b, shape, c.layout, op, t, seed,
                                                            c.offset, bytes);
                              }});
        }
        return runs;
      });
}

int run(int argc, char** argv) {
  CLI::App app{"Lesson 21: a reduction over any axes of a strided tensor", "21_any_axes"};
  std::string shape_text, strides_text, ops_text = "sum", types_text = "float32", baseline_path;
  std::vector<std::string> axes_texts;
  bool explain = false;
  app.add_option(
      "--shape", shape_text,
      "sizes, outermost first: 64,128,64,128 (default: that tensor on a GPU, 8,16,8,16 simulated)");
  app.add_option("--strides", strides_text, "strides in elements (default: contiguous, row-major)");
  app.add_option("--axes", axes_texts,
                 "axes to reduce: 0,2 (repeat for several cases; none: no axes; required with "
                 "--shape, else the "
                 "benchmark's 0,2 1,3 3 0)");
  app.add_option("--ops", ops_text,
                 "comma-separated operators (sum,max,min,mean,variance,argmax,argmin)")
      ->capture_default_str();
  app.add_option("--types", types_text,
                 "comma-separated element types (float32,float64,float16,bfloat16,int32)")
      ->capture_default_str();
  app.add_option("--baseline", baseline_path,
                 "PyTorch's times (tests/device/torch_baselines.py --out FILE)");
  app.add_flag("--explain", explain, "print each case's plan and launch, then stop");
  RunOptionSet set{opt_reps | opt_seed | opt_json | opt_check_only | opt_backend | opt_sim |
                   opt_grade | opt_grade_record | opt_answers};
  set.json_help = "write the table to this file (schema reducelab.axes)";
  const RunOptionParser shared(app, set);
  if (!parse_command_line(app, argc, argv)) return exit_ok;
  const RunOptions o = shared.resolve();
  if (print_hint_if_asked(o, lesson)) return exit_ok;
  if (!o.check_answers.empty())
    return check_answers(std::cout, o.check_answers, axes_by_hand::questions());

  if (o.grade) return grade(argv[0], o);
  const std::uint64_t seed = o.seed;
  const bool check_only = o.check_only;
  const auto ops = parse_op_list(ops_text);
  const auto types = parse_dtype_list(types_text);
  std::vector<std::vector<int>> axis_sets;
  for (const std::string& a : axes_texts) axis_sets.push_back(parse_axes(a));
  if (!shape_text.empty() && axis_sets.empty())
    throw UsageError("--axes: name the axes to reduce (for example --axes 0,2)");
  if (axis_sets.empty()) axis_sets = {{0, 2}, {1, 3}, {3}, {0}};  // the benchmark's four cases
  std::optional<std::vector<std::int64_t>> shape_given, strides_given;
  if (!shape_text.empty()) shape_given = parse_dims(shape_text, "shape");
  if (!strides_text.empty()) strides_given = parse_dims(strides_text, "strides");
  // Every plan is checked before anything runs: a bad axis is a usage error, not a failed case.
  auto plan_for = [&](const std::vector<std::int64_t>& shape, const std::vector<int>& axes) {
    return plan_axes(shape, strides_given ? *strides_given : contiguous_strides(shape), axes);
  };
  if (shape_given)
    for (const auto& axes : axis_sets) plan_for(*shape_given, axes);
  nlohmann::json baseline;
  if (!baseline_path.empty()) {
    std::ifstream f(baseline_path);
    if (!f) throw UsageError("--baseline: cannot read '" + baseline_path + "'");
    try {
      baseline = nlohmann::json::parse(f);
    } catch (const std::exception&) {
      throw UsageError("--baseline: '" + baseline_path + "' is not JSON");
    }
  }

  auto device = open_device(o, std::cout);
  const bool gpu = device->backend() == Backend::gpu;
  const std::vector<std::int64_t> shape = shape_given ? *shape_given
                                          : gpu       ? std::vector<std::int64_t>{64, 128, 64, 128}
                                                      : std::vector<std::int64_t>{8, 16, 8, 16};
  const std::vector<std::int64_t> strides =
      strides_given ? *strides_given : contiguous_strides(shape);
  for (const auto& axes : axis_sets) plan_for(shape, axes);
  const AxesKernels& kernels = *axes_kernels(device->backend());
  const AxesCub* cub = gpu ? axes_cub() : nullptr;
  const Sampling timing{samples(o, device->backend()), 0.2, gpu ? 3u : 1u};
  // Before any work: the tensor must fit (with its host copy, on the simulator), and a simulated
  // run must finish in reasonable time.
  {
    std::size_t widest = 0;
    for (const DType t : types) widest = std::max(widest, dtype_bytes(t));
    const double span = static_cast<double>(plan_for(shape, {}).input_span);
    const double bytes = span * static_cast<double>(widest) * (gpu ? 1 : 2);
    if (bytes > static_cast<double>(device->free_bytes()) / 2)
      throw UsageError("--shape " + join(shape) + ": " +
                       std::to_string(static_cast<std::uint64_t>(bytes) >> 20) +
                       " MiB of input does not fit in the " +
                       (gpu ? "device's memory" : "memory the simulator has") + " (" +
                       std::to_string(device->free_bytes() >> 20) +
                       " MiB free, half of it for the input)");
    if (!gpu && !explain) {
      // Each case's kernel runs: every operator and type, checked and (unless --check-only) timed.
      // Each case's cost is measured on the same tensor with its outermost size cut down, then on
      // the tensor itself where one run is short, where the run is long enough to be worth
      // measuring.
      const std::uint64_t runs =
          ops.size() * types.size() * (1 + (check_only ? 0 : timing.samples));
      double elements = 0;
      for (const auto& axes : axis_sets) {
        const AxesPlan p = plan_for(shape, axes);
        elements += static_cast<double>(runs) * static_cast<double>(p.outputs) *
                    static_cast<double>(p.reduced);
      }
      if (elements >= static_cast<double>(sim_measure_above)) {
        constexpr std::uint64_t most = std::uint64_t{1} << 17;
        SimEstimate estimate;
        for (const auto& axes : axis_sets) {
          const AxesPlan whole = plan_for(shape, axes);
          const double per_outer =
              static_cast<double>(whole.input_span) / static_cast<double>(shape[0]);
          const auto cut = [&](std::uint64_t e) {
            std::vector<std::int64_t> sizes = shape;
            sizes[0] = std::max<std::int64_t>(
                1, std::min<std::int64_t>(
                       shape[0], static_cast<std::int64_t>(static_cast<double>(e) / per_outer)));
            return plan_axes(sizes, strides, axes);
          };
          const AxesPlan largest = cut(most);
          DeviceBuffer in(*device, largest.input_span * sizeof(float) + 16);
          DeviceBuffer out(*device, std::max<std::uint64_t>(largest.outputs, 1) * 16);
          DeviceBuffer scratch(*device, kernels.scratch_bytes(ReduceOp::sum, DType::f32, largest,
                                                              in.get(), device->shape()));
          device->poison(in.get(), in.bytes());
          const SimCost cost = measure_sim_cost([&](std::uint64_t e) {
            const AxesPlan p = cut(e);
            if (p.outputs > 0)
              kernels.reduce(ReduceOp::sum, DType::f32, in.get(), p, scratch.get(), out.get(),
                             device->shape(), device->stream());
          });
          const double one = one_run_seconds(cost, whole.outputs * whole.reduced, [&] {
            DeviceBuffer all_in(*device, whole.input_span * sizeof(float) + 16);
            DeviceBuffer all_out(*device, std::max<std::uint64_t>(whole.outputs, 1) * 16);
            DeviceBuffer all_scratch(
                *device, kernels.scratch_bytes(ReduceOp::sum, DType::f32, whole, all_in.get(),
                                               device->shape()));
            device->poison(all_in.get(), all_in.bytes());
            if (whole.outputs > 0)
              kernels.reduce(ReduceOp::sum, DType::f32, all_in.get(), whole, all_scratch.get(),
                             all_out.get(), device->shape(), device->stream());
          });
          estimate.add({one, 0}, 0, runs);
        }
        check_sim_estimate(estimate,
                           kernel_runs_text(runs * axis_sets.size()) + " over " +
                               general(elements, 3) + " elements in all",
                           o, std::cout);
      }
    }
  }
  std::cout << "lesson 21_any_axes: shape " << join(shape) << ", strides " << join(strides)
            << ", seed " << seed << "\n";

  Table table({"axes", "op", "type", "plan", "M x K", "time", "GB/s", "x CUB", "x torch", "x best",
               "check"});
  std::vector<nlohmann::json> runs;
  bool all_verified = true;
  for (const DType t : types) {
    const AxesPlan whole = plan_for(shape, {});
    const std::size_t bytes = whole.input_span * dtype_bytes(t);
    std::vector<std::byte> host(bytes);
    fill_typed(host.data(), t, whole.input_span, seed, Distribution::uniform);
    const std::size_t copies = std::max<std::size_t>(
        1, std::min(device->rotation_copies(bytes),
                    device->free_bytes() / 2 / std::max<std::size_t>(bytes, 1)));
    std::vector<DeviceBuffer> inputs;
    for (std::size_t c = 0; c < (explain || check_only ? 1 : copies); ++c) {
      inputs.emplace_back(*device, bytes);
      if (bytes) device->upload(inputs.back().get(), host.data(), bytes);
    }
    for (const auto& axes : axis_sets) {
      const AxesPlan plan = plan_for(shape, axes);
      const AxesLaunchInfo launch = kernels.launch_info(t, plan, inputs[0].get(), device->shape());
      if (explain) {
        std::cout << join_axes(axes) << " " << to_string(t) << ": " << plan.describe()
                  << "\n    launch: " << launch.kernel
                  << (launch.packs ? ", 16-byte packs" : ", element loads")
                  << (launch.group ? ", " + std::to_string(launch.group) + " lanes an output" : "")
                  << (launch.splits > 1 ? ", split " + std::to_string(launch.splits) + " ways" : "")
                  << (launch.partials > 1 ? ", " + std::to_string(launch.partials) +
                                                " partials an output + finish_partials"
                                          : "")
                  << "\n";
        continue;
      }
      const std::uint64_t read_bytes = plan.outputs * plan.reduced * dtype_bytes(t);
      for (const ReduceOp op : ops) {
        const std::uint64_t depth = kernels.depth(t, plan, inputs[0].get(), device->shape());
        const std::vector<OpValue> got = run_axes(*device, op, t, inputs[0].get(), plan);
        const std::vector<OpReference> refs =
            axes_reference(op, t, host.data(), plan, shape, strides, axes, depth);
        std::uint64_t wrong = 0;
        for (std::uint64_t m = 0; m < plan.outputs; ++m)
          wrong += matches(refs[m], got[m], op) ? 0 : 1;
        all_verified = all_verified && wrong == 0;
        nlohmann::json rec = {{"shape", shape},
                              {"strides", strides},
                              {"axes", axes},
                              {"op", to_string(op)},
                              {"dtype", to_string(t)},
                              {"outputs", plan.outputs},
                              {"reduced", plan.reduced},
                              {"bytes", read_bytes},
                              {"plan", plan.describe()},
                              {"strategy", to_string(plan.strategy)},
                              {"kernel", launch.kernel},
                              {"splits", launch.splits},
                              {"wrong_outputs", wrong},
                              {"verified", wrong == 0}};
        std::vector<std::string> row{
            join_axes(axes),
            std::string(to_string(op)),
            std::string(to_string(t)),
            to_string(plan.strategy),
            std::to_string(plan.outputs) + " x " + std::to_string(plan.reduced),
            "-",
            "-",
            "-",
            "-",
            "-",
            wrong == 0 ? "verified" : std::to_string(wrong) + " WRONG"};
        if (!check_only && plan.outputs > 0) {
          DeviceBuffer scratch(
              *device, kernels.scratch_bytes(op, t, plan, inputs[0].get(), device->shape()));
          DeviceBuffer out(*device, reduce_output_bytes(op, t) * plan.outputs);
          const Timing mine = device->time(
              [&](std::size_t k) {
                kernels.reduce(op, t, inputs[k].get(), plan, scratch.get(), out.get(),
                               device->shape(), device->stream());
              },
              inputs.size(), timing);
          rec["time"] = to_json(mine);
          row[5] = duration(mine.ms.median);
          std::optional<double> best;
          if (!mine.simulated) {
            const double gbps = static_cast<double>(read_bytes) / (mine.ms.median * 1e6);
            rec["gbps"] = gbps;
            row[6] = fixed(gbps, 0);
          }
          if (cub && cub->supports(op, t)) {
            DeviceBuffer cub_scratch(*device, cub->scratch_bytes(t, plan)),
                cub_out(*device, reduce_output_bytes(op, t) * plan.outputs);
            const Timing theirs = device->time(
                [&](std::size_t k) {
                  cub->reduce(t, inputs[k].get(), plan, cub_scratch.get(), cub_scratch.bytes(),
                              cub_out.get(), device->stream());
                },
                inputs.size(), timing);
            rec["cub"] = {{"call", cub->name(plan)}, {"time", to_json(theirs)}};
            rec["vs_cub"] = theirs.ms.median / mine.ms.median;
            row[7] = fixed(theirs.ms.median / mine.ms.median, 2);
            best = theirs.ms.median;
          }
          if (const auto torch = torch_ms(baseline, shape, axes, t, op); torch && !mine.simulated) {
            rec["torch"] = {{"median_ms", *torch}};
            rec["vs_torch"] = *torch / mine.ms.median;
            row[8] = fixed(*torch / mine.ms.median, 2);
            best = best ? std::min(*best, *torch) : *torch;
          }
          if (best && !mine.simulated)
            rec["vs_best"] = *best / mine.ms.median, row[9] = fixed(*best / mine.ms.median, 2);
        }
        table.add(row);
        runs.push_back(rec);
      }
    }
  }
  if (explain) return exit_ok;
  table.print(std::cout);
  if (!gpu && !check_only) std::cout << "(simulated times: no GB/s, no CUB, no torch)\n";
  if (cub && !check_only)
    for (const auto& axes : axis_sets)
      std::cout << "CUB for " << join_axes(axes) << ": " << cub->name(plan_for(shape, axes))
                << "\n";
  if (!o.json_path.empty()) {
    nlohmann::json doc = table_record("reducelab.axes", *device, seed, timing.samples);
    doc["baseline"] = baseline_path;
    doc["runs"] = runs;
    write_json_file(o.json_path, doc);
  }
  return all_verified ? exit_ok : exit_failed;
}

}  // namespace

int main(int argc, char** argv) {
  return guarded([&] { return run(argc, argv); });
}
