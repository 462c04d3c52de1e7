// Lessons 19 and 20's executable (see matrix_main.h).
#include "common/host/matrix_main.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/grade_main.h"
#include "common/host/harness.h"
#include "common/host/profile_record.h"
#include "common/host/results.h"
#include "common/host/sim_budget.h"
#include "common/host/table.h"
#include "common/host/typed_outputs.h"

namespace rl {
namespace {

// The matrix lessons refuse an empty --ops or --types (the others print an empty table).
template <class E>
std::vector<E> nonempty(std::vector<E> list, const char* option) {
  if (list.empty()) throw UsageError(std::string("--") + option + ": empty list");
  return list;
}

// torch timings keyed by (M, N, reduced dim, dtype, op), from tests/device/torch_baselines.py's
// JSON.
using TorchKey = std::tuple<std::uint64_t, std::uint64_t, int, std::string, std::string>;
std::map<TorchKey, double> load_torch(const std::string& path, std::string& device) {
  std::ifstream file(path);
  if (!file) throw UsageError("--baseline: cannot open '" + path + "'");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(file);
  } catch (const std::exception& e) {
    throw UsageError("--baseline: '" + path + "' is not JSON");
  }
  std::map<TorchKey, double> out;
  try {
    device = doc.value("device", std::string("?"));
    for (const auto& e : doc.at("entries")) {
      const auto& shape = e.at("shape");
      const auto& dims = e.at("dims");
      if (shape.size() != 2 || dims.size() != 1) continue;  // lesson 21's shapes: not ours
      out[{shape[0].get<std::uint64_t>(), shape[1].get<std::uint64_t>(), dims[0].get<int>(),
           e.at("dtype").get<std::string>(), e.at("op").get<std::string>()}] =
          e.at("median_us").get<double>();
    }
  } catch (const nlohmann::json::exception& e) {
    throw UsageError("--baseline: unexpected layout in '" + path + "' (" + e.what() + ")");
  }
  return out;
}

// Every graded case with each of its operators, stopping at the first wrong output, then the
// lesson's idea cases (their depth); cases up to 2^15 elements run again on the simulator in the
// other thread orders (grade_runs).
int grade(const std::string& program_path, const RunOptions& o, const MatrixLesson& lesson) {
  constexpr std::uint64_t rerun_elements = std::uint64_t{1} << 15;
  return grade_runs(
      std::cout, program_path, std::stoi(lesson.program.substr(0, 2)), lesson.program.substr(3),
      std::string(lesson.kernels(Backend::sim)->source), o,
      [&](Device& d) -> std::optional<std::vector<GradedRun>> {
        const MatrixKernels* kernels = lesson.kernels(d.backend());
        if (!kernels) return std::nullopt;
        std::vector<GradedRun> runs;
        for (MatrixCase c : lesson.graded_cases()) {
          c.seed = graded_seed(c.seed, o.grade_seed);
          for (const ReduceOp op : c.ops)
            runs.push_back(
                {describe(lesson.axis, c, op), c.m * c.n <= rerun_elements,
                 [&d, axis = lesson.axis, kernels, c, op](std::vector<unsigned char>& bytes) {
                   bytes = matrix_case_outputs(d, axis, *kernels, c, op);
                 },
                 [shape = d.shape(), axis = lesson.axis, kernels, c,
                  op](const std::vector<unsigned char>& bytes) {
                   return matrix_outputs_failure(axis, *kernels, c, op, shape, bytes);
                 }});
        }
        for (MatrixCase c : lesson.idea_cases) {
          c.seed = graded_seed(c.seed, o.grade_seed);
          // "the depth of float32, 64x128 rows, seed 1": describe's line past "sum of "
          runs.push_back({"the depth of " + describe(lesson.axis, c, ReduceOp::sum).substr(7),
                          false,
                          [&d, axis = lesson.axis, kernels, c](std::vector<unsigned char>& bytes) {
                            bytes = matrix_depth_outputs(d, axis, *kernels, c);
                          },
                          [shape = d.shape(), axis = lesson.axis, kernels, c,
                           idea = lesson.idea](const std::vector<unsigned char>& bytes) {
                            return matrix_depth_failure(axis, *kernels, c, shape, bytes, idea);
                          }});
        }
        return runs;
      });
}

}  // namespace

MatrixShape parse_shape(const std::string& text) {
  const auto x = text.find('x');
  const auto bad = [&](const std::string& why) {
    return UsageError("--shape: expected MxN such as 4096x4096 or 2^20x8, got '" + text + "'" +
                      why);
  };
  if (x == std::string::npos) throw bad("");
  const std::string_view m_text = std::string_view(text).substr(0, x),
                         n_text = std::string_view(text).substr(x + 1);
  const auto m = parse_size(m_text);
  const auto n = parse_size(n_text);
  if (!m || !n) {
    // Say which: a size past 2^62 is too large; anything else is not a size at all.
    for (const std::string_view part : {m_text, n_text})
      if (!parse_size(part)) {
        try {
          parse_count(part, "--shape");
        } catch (const UsageError& e) {
          if (std::string(e.what()).find("too large") != std::string::npos)
            throw UsageError("--shape " + text + ": " + std::string(part) +
                             " is too large (at most 2^62)");
        }
      }
    throw bad("");
  }
  if (*m == 0 || *n == 0) throw bad(" (both sizes must be at least 1)");
  if (*m > max_size / *n)
    throw UsageError("--shape " + text + " is too large: M x N is over 2^62 elements");
  return {*m, *n};
}

std::string shape_label(const MatrixShape& s) {
  const auto dimension = [](std::uint64_t d) {
    return d >= (std::uint64_t{1} << 20) ? size_label(d) : std::to_string(d);
  };
  return dimension(s.m) + "x" + dimension(s.n);
}

std::string shape_key(const MatrixShape& s) {
  std::string text = shape_label(s);
  for (char& c : text)
    if (c == '^') c = 'p';
  return text;
}

int matrix_main(int argc, char** argv, const MatrixLesson& lesson) {
  CLI::App app{lesson.about, lesson.program};
  std::string shapes_text, ops_text, types_text = "float32", baseline_path;
  app.add_option("--shape", shapes_text,
                 "comma-separated MxN shapes, such as 4096x4096,2^20x8 (default: the benchmark "
                 "shapes; a 64th of "
                 "each simulated)");
  app.add_option("--ops", ops_text,
                 "comma-separated operators (default: sum, and every operator at the first shape)");
  app.add_option("--types", types_text, "comma-separated element types")->capture_default_str();
  app.add_option("--baseline", baseline_path,
                 "torch timings (tests/device/torch_baselines.py) for the x torch column");
  RunOptionSet set{opt_reps | opt_seed | opt_json | opt_check_only | opt_backend | opt_sim |
                   opt_grade | opt_grade_record | (lesson.questions.empty() ? 0u : opt_answers)};
  set.gpu_reps = 30;
  set.json_help = "write the table to this file (schema reducelab.matrix)";
  const RunOptionParser shared(app, set);
  if (!parse_command_line(app, argc, argv)) return exit_ok;
  const RunOptions o = shared.resolve();
  if (print_hint_if_asked(o, std::stoi(lesson.program.substr(0, 2)))) return exit_ok;
  if (!o.check_answers.empty()) return check_answers(std::cout, o.check_answers, lesson.questions);

  if (o.grade) return grade(argv[0], o, lesson);
  const std::uint64_t seed = o.seed;
  const bool check_only = o.check_only;
  const std::string& json_path = o.json_path;
  const auto types = nonempty(parse_dtype_list(types_text), "types");
  std::vector<ReduceOp> ops;
  if (!ops_text.empty()) ops = nonempty(parse_op_list(ops_text), "ops");
  std::vector<MatrixShape> shapes;
  if (!shapes_text.empty()) {
    std::stringstream in(shapes_text);
    for (std::string item; std::getline(in, item, ',');) shapes.push_back(parse_shape(item));
  }
  std::string torch_device;
  std::map<TorchKey, double> torch;
  if (!baseline_path.empty()) torch = load_torch(baseline_path, torch_device);

  auto device = open_device(o, std::cout);
  const bool gpu = device->backend() == Backend::gpu;
  if (shapes.empty()) {
    // The benchmark shapes: square, tall-skinny, short-wide, and the two extremes; a 64th of each
    // on the simulator, which runs about a million elements a second.
    const char* defaults =
        gpu ? "4096x4096,65536x64,64x65536,2^20x8,8x2^20" : "512x512,1024x64,64x1024,2^14x8,8x2^14";
    std::stringstream in(defaults);
    for (std::string item; std::getline(in, item, ',');) shapes.push_back(parse_shape(item));
  }
  const MatrixKernels* kernels = lesson.kernels(device->backend());
  if (!kernels) throw UsageError(lesson.program + " has no kernels for this backend in this build");
  const CubMatrixSum* cub = gpu ? lesson.cub : nullptr;
  const Sampling sampling{samples(o, device->backend()), 0.2, gpu ? 3u : 1u};
  // Before any work: every shape must fit (the input and, on the simulator, its host copy), and a
  // simulated run must finish in reasonable time.
  for (const auto& [m, n] : shapes)
    for (const DType t : types)
      if (static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(dtype_bytes(t)) >
          static_cast<double>(device->free_bytes()) / 2)
        throw UsageError("--shape " + std::to_string(m) + "x" + std::to_string(n) + ": " +
                         std::to_string(m * n * dtype_bytes(t) >> 20) + " MiB of " +
                         std::string(to_string(t)) + " does not fit in the " +
                         (gpu ? "device's memory" : "memory the simulator has") + " (" +
                         std::to_string(device->free_bytes() >> 20) +
                         " MiB free, half of it for the input)");
  if (!gpu) {
    // Each shape's kernel runs: every operator and type, checked and (unless --check-only) timed,
    // and the extra kernel's float32 sum. Each shape's cost is measured on matrices of its width
    // with fewer rows, then on the shape itself where one run is short, where the run is long
    // enough to be worth measuring.
    const std::uint64_t each = 1 + (check_only ? 0 : sampling.samples);
    std::vector<std::uint64_t> runs(shapes.size());
    double elements = 0;
    for (std::size_t si = 0; si < shapes.size(); ++si) {
      const std::size_t n_ops = !ops.empty() ? ops.size() : si == 0 ? std::size(all_ops) : 1;
      const bool extra = lesson.extra && (ops.empty() || std::find(ops.begin(), ops.end(),
                                                                   ReduceOp::sum) != ops.end());
      runs[si] = each * types.size() * n_ops + (extra ? each : 0);
      elements += static_cast<double>(runs[si]) * static_cast<double>(shapes[si].m) *
                  static_cast<double>(shapes[si].n);
    }
    if (elements >= static_cast<double>(sim_measure_above)) {
      constexpr std::uint64_t most = std::uint64_t{1} << 17;
      DeviceBuffer in(*device, most * sizeof(float)), out(*device, most * 8);
      device->poison(in.get(), most * sizeof(float));
      SimEstimate estimate;
      std::uint64_t total_runs = 0;
      for (std::size_t si = 0; si < shapes.size(); ++si) {
        const std::uint64_t width = std::min(shapes[si].n, most / 4);
        const auto shape_of = [&](std::uint64_t e) {
          return MatrixShape{std::max<std::uint64_t>(1, e / width), width};
        };
        const MatrixShape largest = shape_of(most);
        DeviceBuffer scratch(*device, kernels->scratch_bytes(ReduceOp::sum, DType::f32, largest.m,
                                                             largest.n, device->shape()));
        const SimCost cost = measure_sim_cost([&](std::uint64_t e) {
          const MatrixShape s = shape_of(e);
          kernels->reduce(ReduceOp::sum, DType::f32, in.get(), s.m, s.n, scratch.get(), out.get(),
                          device->shape(), device->stream());
        });
        const auto [m, n] = shapes[si];
        const double one = one_run_seconds(cost, m * n, [&] {
          DeviceBuffer whole(*device, m * n * sizeof(float)),
              whole_out(*device, std::max(m, n) * 8);
          DeviceBuffer whole_scratch(
              *device, kernels->scratch_bytes(ReduceOp::sum, DType::f32, m, n, device->shape()));
          device->poison(whole.get(), whole.bytes());
          kernels->reduce(ReduceOp::sum, DType::f32, whole.get(), m, n, whole_scratch.get(),
                          whole_out.get(), device->shape(), device->stream());
        });
        estimate.add({one, 0}, 0, runs[si]);
        total_runs += runs[si];
      }
      check_sim_estimate(
          estimate,
          kernel_runs_text(total_runs) + " over " + general(elements, 3) + " elements in all", o,
          std::cout);
    }
  }
  const int torch_dim = lesson.axis == Axis::rows ? 1 : 0;
  std::cout << lesson.program << ": seed " << seed;
  if (!torch.empty())
    std::cout << ", torch timings of " << torch_device << " from " << baseline_path;
  std::cout << "\n";

  Table table(
      {"shape", "op", "type", "plan", "time", "GB/s", "x CUB", "x torch", "x best", "check"});
  std::vector<nlohmann::json> runs;
  bool all_verified = true;
  for (std::size_t si = 0; si < shapes.size(); ++si) {
    const auto [m, n] = shapes[si];
    const std::string shape_text = std::to_string(m) + "x" + std::to_string(n);
    const std::uint64_t outputs = lesson.axis == Axis::rows ? m : n;
    std::vector<ReduceOp> shape_ops = ops;
    if (shape_ops.empty()) {
      if (si == 0)
        shape_ops.assign(std::begin(all_ops), std::end(all_ops));
      else
        shape_ops = {ReduceOp::sum};
    }
    for (const DType t : types) {
      const std::size_t bytes = m * n * dtype_bytes(t);
      std::vector<std::byte> host(bytes);
      fill_typed(host.data(), t, m * n, seed, Distribution::uniform);
      // Rotated copies: each timed call reads a copy the previous calls have pushed out of L2.
      const std::size_t copies =
          check_only ? 1
                     : std::max<std::size_t>(1, std::min(device->rotation_copies(bytes),
                                                         device->free_bytes() / 2 / bytes));
      std::vector<DeviceBuffer> inputs;
      for (std::size_t c = 0; c < copies; ++c) {
        inputs.emplace_back(*device, bytes);
        device->upload(inputs.back().get(), host.data(), bytes);
      }
      std::vector<std::byte> gather;
      const auto verify = [&](ReduceOp op, const std::vector<unsigned char>& got,
                              std::uint64_t depth, double& worst) {
        bool ok = true;
        for (std::uint64_t i = 0; i < outputs; ++i) {
          const OpReference ref =
              matrix_reference(lesson.axis, op, t, host.data(), m, n, i, depth, gather);
          const OpValue v = decode_output(op, t, got.data(), i);
          if (!matches(ref, v, op)) {
            if (ok)
              std::cerr << "  " << shape_text << " " << to_string(op) << " " << to_string(t)
                        << ": output " << i << " is " << v.value << " [" << v.index
                        << "], expected " << ref.expected.value << " [" << ref.expected.index
                        << "] within " << ref.tolerance << "\n";
            ok = false;
          }
          if (ref.tolerance > 0)
            worst = std::max(worst, std::abs(v.value - ref.expected.value) / ref.tolerance);
        }
        return ok;
      };
      const auto time_ms = [&](const std::function<void(std::size_t)>& body) {
        return device->time(body, copies, sampling);
      };

      for (const ReduceOp op : shape_ops) {
        const std::size_t out_bytes = outputs * reduce_output_bytes(op, t);
        DeviceBuffer scratch(*device, kernels->scratch_bytes(op, t, m, n, device->shape())),
            out(*device, out_bytes);
        device->poison(out.get(), out_bytes);
        kernels->reduce(op, t, inputs[0].get(), m, n, scratch.get(), out.get(), device->shape(),
                        device->stream());
        device->synchronize();
        std::vector<unsigned char> got(out_bytes);
        device->download(got.data(), out.get(), out_bytes);
        double worst = 0.0;
        const bool verified = verify(op, got, kernels->depth(op, t, m, n, device->shape()), worst);
        all_verified = all_verified && verified;
        const std::string plan_text = kernels->plan(op, t, m, n, device->shape());
        nlohmann::json rec = {{"shape", {m, n}},      {"dims", {torch_dim}},
                              {"op", to_string(op)},  {"dtype", to_string(t)},
                              {"bytes", bytes},       {"plan", plan_text},
                              {"verified", verified}, {"worst_error_over_tolerance", worst}};
        std::vector<std::string> row{shape_text,
                                     std::string(to_string(op)),
                                     std::string(to_string(t)),
                                     plan_text,
                                     "-",
                                     "-",
                                     "-",
                                     "-",
                                     "-",
                                     verified ? "verified" : "WRONG"};
        if (!check_only) {
          const Timing mine = time_ms([&](std::size_t k) {
            kernels->reduce(op, t, inputs[k].get(), m, n, scratch.get(), out.get(), device->shape(),
                            device->stream());
          });
          rec["time"] = to_json(mine);
          row[4] = duration(mine.ms.median);
          double best_other = 0.0;  // the faster of CUB and torch, in ms
          if (!mine.simulated) {
            const double gbps = static_cast<double>(bytes) / (mine.ms.median * 1e6);
            rec["gbps"] = gbps;
            row[5] = fixed(gbps, 0);
          }
          if (cub && op == ReduceOp::sum && t == DType::f32) {
            DeviceBuffer cub_scratch(*device, std::max<std::size_t>(1, cub->scratch_bytes(m, n)));
            DeviceBuffer cub_out(*device, outputs * sizeof(float));
            const Timing theirs = time_ms([&](std::size_t k) {
              cub->reduce(inputs[k].get<float>(), m, n, cub_scratch.get(), cub_scratch.bytes(),
                          cub_out.get<float>(), device->stream());
            });
            rec["cub"] = {{"call", cub->name}, {"time", to_json(theirs)}};
            rec["vs_cub"] = theirs.ms.median / mine.ms.median;
            row[6] = fixed(theirs.ms.median / mine.ms.median, 2);
            best_other = theirs.ms.median;
          }
          const auto it =
              torch.find({m, n, torch_dim, std::string(to_string(t)), std::string(to_string(op))});
          if (gpu && it != torch.end()) {
            const double torch_ms = it->second / 1000.0;
            rec["torch_median_us"] = it->second;
            rec["vs_torch"] = torch_ms / mine.ms.median;
            row[7] = fixed(torch_ms / mine.ms.median, 2);
            best_other = best_other > 0 ? std::min(best_other, torch_ms) : torch_ms;
          }
          if (best_other > 0) {
            rec["vs_best"] = best_other / mine.ms.median;
            row[8] = fixed(best_other / mine.ms.median, 2);
          }
        }
        table.add(row);
        runs.push_back(rec);
      }

      if (lesson.extra && t == DType::f32 &&
          std::find(shape_ops.begin(), shape_ops.end(), ReduceOp::sum) != shape_ops.end()) {
        const MatrixExtra& x = *lesson.extra;
        DeviceBuffer out(*device, outputs * sizeof(float));
        const auto run_extra = [&](std::size_t k) {  // zeroes out itself, in the stream
          x.reduce(device->backend(), inputs[k].get<float>(), m, n, out.get<float>(),
                   device->stream());
        };
        run_extra(0);
        device->synchronize();
        std::vector<unsigned char> got(outputs * sizeof(float));
        device->download(got.data(), out.get(), got.size());
        double worst = 0.0;
        // a column's adds, in any order: depth m
        const bool verified = verify(ReduceOp::sum, got, m + 1, worst);
        all_verified = all_verified && verified;
        nlohmann::json rec = {{"shape", {m, n}},      {"dims", {torch_dim}},
                              {"op", "sum"},          {"dtype", "float32"},
                              {"bytes", bytes},       {"plan", x.name},
                              {"verified", verified}, {"deterministic", x.deterministic}};
        std::vector<std::string> row{
            shape_text, "sum", "float32", x.name, "-",
            "-",        "-",   "-",       "-",    verified ? "verified" : "WRONG"};
        if (!check_only) {
          const Timing mine = time_ms(run_extra);  // includes the zeroing it needs
          rec["time"] = to_json(mine);
          row[4] = duration(mine.ms.median);
          if (!mine.simulated)
            rec["gbps"] = static_cast<double>(bytes) / (mine.ms.median * 1e6),
            row[5] = fixed(static_cast<double>(bytes) / (mine.ms.median * 1e6), 0);
        }
        table.add(row);
        runs.push_back(rec);
      }
    }
  }
  table.print(std::cout);
  if (!gpu && !check_only) std::cout << "(simulated times: no GB/s, no CUB, no torch)\n";
  if (!json_path.empty()) {
    nlohmann::json doc = table_record("reducelab.matrix", *device, seed, sampling.samples);
    doc["lesson"] = lesson.program;
    doc["axis"] = lesson.axis == Axis::rows ? "rows" : "columns";
    doc["baseline"] =
        baseline_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(baseline_path);
    doc["runs"] = runs;
    write_json_file(json_path, doc);
  }
  return all_verified ? exit_ok : exit_failed;
}

}  // namespace rl
