#include "lessons/22_multi_gpu_nccl/questions.h"

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/results.h"
#include "common/host/table.h"

namespace rl::collective_cost {
namespace {

// The course's scaling runs (`22_multi_gpu_nccl --scaling --n-per-gpu 2^30`): one, two and four
// H100s, and one and two H200s. Each question reads one device's file only.
const char* const h100_file = "results/h100x4-nccl-scaling.json";
const char* const h200_file = "results/h200x2-nccl-scaling.json";
// Question 2's share per GPU: small enough that the collective weighs as much as the reading.
constexpr std::uint64_t model_n_per_gpu = std::uint64_t{1} << 24;

// The run on `gpus` GPUs in `file`.
nlohmann::json run(const char* file, unsigned gpus) {
  const nlohmann::json doc = committed_json(file, {"runs"});
  for (const auto& r : doc["runs"])
    if (r.value("lesson", 0) == 22 && r.value("gpus", 0u) == gpus && r.contains("time") &&
        r.contains("collective") && r.contains("local"))
      return r;
  throw UsageError(committed_asset_path(file) + " has no run on " + std::to_string(gpus) + " GPUs");
}

// alpha(K) of README.md's model: the all-reduce of one float alone, every GPU idle.
double alpha_ms(const nlohmann::json& r) { return r["collective"]["median_ms"].get<double>(); }
// B of README.md's model: the one GPU's local reduction (lesson 12's kernel) alone, in GB/s.
double one_gpu_gbps(const char* file) { return run(file, 1)["local"][0]["gbps"].get<double>(); }

// Taking turns: each GPU's local reduction starts when the one before it has finished, then the
// collective runs. By the model the total is the sum of the local times and the collective's.
double turns_ms(const nlohmann::json& r) {
  double ms = alpha_ms(r);
  for (const auto& l : r["local"]) ms += l["time"]["median_ms"].get<double>();
  return ms;
}

std::string turns_total() { return fixed(turns_ms(run(h100_file, 2)), 3); }

// The turns' aggregate GB/s over twice the one-GPU run's, the table's efficiency.
std::string turns_efficiency() {
  const nlohmann::json two = run(h100_file, 2);
  const double gbps = 4.0 * two["n"].get<double>() / (turns_ms(two) * 1e6);
  return fixed(gbps / (2 * run(h100_file, 1)["gbps"].get<double>()), 3);
}

// README.md's model at model_n_per_gpu floats a GPU (weak scaling): T(K) = 4 n / B + alpha(K),
// every GPU reading its own share at the one GPU's B; the efficiency is T(1) / T(4).
std::string model_efficiency_4() {
  const double read_ms =
      4.0 * static_cast<double>(model_n_per_gpu) / (one_gpu_gbps(h100_file) * 1e6);
  return fixed((read_ms + alpha_ms(run(h100_file, 1))) / (read_ms + alpha_ms(run(h100_file, 4))),
               3);
}

// The fixed N at which two GPUs are no faster than one: 2 N / B = alpha(2) - alpha(1)
// (EXERCISE.md, question 3), in millions of floats.
std::string break_even(const char* file) {
  const double seconds = (alpha_ms(run(file, 2)) - alpha_ms(run(file, 1))) * 1e-3;
  return fixed(seconds * one_gpu_gbps(file) * 1e9 / 2 / 1e6, 1);
}

}  // namespace

std::vector<Question> questions() {
  std::vector<Question> q;
  q.push_back({"turns_total_ms",
               "Taking turns, the second GPU starts reading only when the first has finished: add "
               "up what each step of the two-GPU run takes on its own (each GPU's local reduction, "
               "then the collective alone), in ms (within 5%).",
               turns_total, within(0, 0.05)});
  q.push_back({"turns_efficiency",
               "Two GPUs read twice the bytes of one in the time you found for the turns: divide "
               "that aggregate rate by twice the one-GPU run's GB/s (within 0.03).",
               turns_efficiency, within(0.03, 0)});
  q.push_back(
      {"efficiency_4gpus_2p24",
       "Each GPU reads its 2^24 floats at the one-GPU run's local rate, whatever K is; only "
       "the collective alone grows with K. Work out T(1) and T(4) in the same unit, then "
       "their ratio (within 0.03).",
       model_efficiency_4, within(0.03, 0)});
  q.push_back(
      {"breakeven_h100_mfloats",
       "Take alpha(1) and alpha(2) from the collective-alone times on one and two GPUs, and "
       "B from the one-GPU run's local reduction, in bytes a second; then solve "
       "2 N / B = alpha(2) - alpha(1) for N, in millions of floats (within 10%).",
       [] { return break_even(h100_file); }, within(0, 0.10)});
  q.push_back({"breakeven_h200_mfloats",
               "The same on the H200s, from their own file: their B and their alpha(1), alpha(2), "
               "in millions of floats (within 10%).",
               [] { return break_even(h200_file); }, within(0, 0.10)});
  return q;
}

}  // namespace rl::collective_cost
