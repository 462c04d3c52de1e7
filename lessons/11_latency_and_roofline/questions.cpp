#include "lessons/11_latency_and_roofline/questions.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/results.h"
#include "common/host/table.h"
#include "lessons/11_latency_and_roofline/littles_law.h"

namespace rl::latency {
namespace {

// The course's H100 runs of this lesson at 2^26 and 2^28: each with its pointer chase, its
// streaming ceiling, every rung's bytes in flight and GB/s, and the roofline (`latency`).
std::string measured_file(int log2_n) {
  return "results/h100-latency-2p" + std::to_string(log2_n) + ".json";
}
// How far a measured answer may be from the program's: the inputs are measurements.
constexpr double need_tolerance = 0.05, latency_tolerance = 0.10, ridge_tolerance = 0.10;

nlohmann::json measured(int log2_n) {
  return committed_json(measured_file(log2_n), {"latency", "device", "baselines"});
}

// The DRAM chase's ns a load and the streaming ceiling's GB/s of the same run.
double dram_ns(const nlohmann::json& doc) {
  for (const auto& c : doc["latency"]["chase"])
    if (c.value("memory", "") == "dram") return c["ns_per_load"].get<double>();
  throw UsageError("the committed run has no DRAM chase");
}
double ceiling_gbps(const nlohmann::json& doc) {
  return doc["baselines"].at(0)["stream_read_gbps"].get<double>();
}
unsigned sm_count(const nlohmann::json& doc) { return doc["device"]["sm_count"].get<unsigned>(); }

// The run of the variant 1x4B: one 4-byte load in flight a thread.
const nlohmann::json& one_load_rung(const nlohmann::json& doc) {
  for (const auto& r : doc["latency"]["rungs"])
    if (r.value("lesson", 0) == 11 && r.value("variant", "") == "1x4B") return r;
  throw UsageError("the committed run has no row for 11 / 1x4B");
}

// Little's law: the bytes the whole GPU must keep in flight to stream at the ceiling, in KiB.
std::string gpu_need_kib(int log2_n) {
  const nlohmann::json doc = measured(log2_n);
  return fixed(bytes_in_flight_needed(ceiling_gbps(doc), dram_ns(doc)) / 1024, 1);
}

// The fewest 4-byte loads a thread must keep in flight, with as many threads on an SM as 1x4B had
// (all an SM holds), for its bytes to reach an SM's share of that need.
std::string fewest_4b_loads(int log2_n) {
  const nlohmann::json doc = measured(log2_n);
  const double per_sm = bytes_in_flight_needed(ceiling_gbps(doc), dram_ns(doc)) / sm_count(doc);
  const auto threads = one_load_rung(doc)["resident_threads_per_sm"].get<std::uint64_t>();
  unsigned loads = 1;
  while (bytes_in_flight(loads, 4, threads) < per_sm) ++loads;
  return std::to_string(loads);
}

// Little's law read the other way: the latency that 1x4B's bytes in flight, all on their way at
// every moment, would have met to stream at the GB/s it measured (GB/s x ns = bytes).
std::string loaded_latency_ns(int log2_n) {
  const nlohmann::json doc = measured(log2_n);
  const nlohmann::json& r = one_load_rung(doc);
  const double in_flight =
      bytes_in_flight(r["loads_in_flight"].get<unsigned>(), r["load_bytes"].get<unsigned>(),
                      r["resident_threads_per_sm"].get<std::uint64_t>()) *
      sm_count(doc);
  return fixed(in_flight / r["gbps"].get<double>(), 0);
}

// The roofline's ridge: the FP32 adds' peak over the DRAM's spec peak, as the run's roofline has
// them.
std::string ridge(int log2_n) {
  const nlohmann::json roof = measured(log2_n)["latency"]["roofline"];
  return fixed(ridge_intensity(roof["fp32_add_peak_gflops"].get<double>(),
                               roof["spec_peak_gbps"].get<double>()),
               2);
}

}  // namespace

LessonExtras with_questions(LessonExtras extras) {
  std::vector<Question>& q = extras.questions;
  q.push_back({"need_gpu_kib_2p26",
               "Little's law: bandwidth x latency. Take the streaming ceiling and the DRAM chase's "
               "latency of the same run; GB/s x ns gives bytes.",
               [] { return gpu_need_kib(26); }, within(0, need_tolerance)});
  for (const int k : {26, 28})
    q.push_back({"loads_4b_2p" + std::to_string(k),
                 "Divide the need by the SMs, then by the bytes one load a thread brings on each "
                 "SM (2048 threads x 4 bytes), and round up: how close is it to a whole number?",
                 [k] { return fewest_4b_loads(k); },
                 {}});
  q.push_back({"loaded_latency_ns_1x4b_2p26",
               "Little's law the other way: latency = bytes in flight / bandwidth. Take 1x4B's "
               "bytes in flight on the whole GPU and the GB/s it reached, not the ceiling.",
               [] { return loaded_latency_ns(26); }, within(0, latency_tolerance)});
  q.push_back({"ridge_flop_per_byte",
               "The FP32 adds' peak is SMs x adds an SM a clock x the clock; divide it by the "
               "DRAM's spec peak in GB/s.",
               [] { return ridge(26); }, within(0, ridge_tolerance)});
  return extras;
}

}  // namespace rl::latency
