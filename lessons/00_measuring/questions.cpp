#include "lessons/00_measuring/questions.h"

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/profile_record.h"
#include "common/host/results.h"
#include "common/host/table.h"

namespace rl::cost_bounds {
namespace {

// The course's H100 run of the ladder: the device record (its memory's spec peak, its SMs) and the
// two yardsticks at every power of two from 2^10 to 2^28 (the README's table shows three sizes).
const char* const bench_file = "results/h100-bench.json";
// Lesson 11's H100 run at 2^28: its pointer chase (the DRAM latency) and its roofline (the FP32
// adds' peak), on the same GPU.
const char* const latency_file = "results/h100-latency-2p28.json";

constexpr std::uint64_t floor_n = std::uint64_t{1} << 24;  // question 1
constexpr std::uint64_t small_n = std::uint64_t{1} << 20;  // question 2
constexpr std::uint64_t large_n = std::uint64_t{1} << 28;  // the rate questions 2-4 start from
// Question 2: the share of its rate at large_n the ceiling reaches from some size on.
constexpr double most_of_the_rate = 0.90;
// Question 3: the block whose threads each keep one float's load on its way.
constexpr unsigned block_threads = 256;

nlohmann::json bench() { return committed_json(bench_file, {"device", "baselines"}); }

// The yardsticks' record at n (the ceiling is `stream_read`).
nlohmann::json baseline(const nlohmann::json& doc, std::uint64_t n) {
  for (const auto& b : doc["baselines"])
    if (b.value("n", std::uint64_t{0}) == n) return b;
  throw UsageError(committed_asset_path(bench_file) +
                   " has no yardsticks at n = " + std::to_string(n));
}

double ceiling_gbps(const nlohmann::json& doc, std::uint64_t n) {
  return baseline(doc, n).at("stream_read_gbps").get<double>();
}

// The least time n floats take to read once at `gbps`, in microseconds (GB/s is bytes a ns).
double floor_us(std::uint64_t n, double gbps) {
  return static_cast<double>(sizeof(float) * n) / gbps / 1e3;
}

// Question 1: the floor at 2^24 at the memory's spec peak (memory clock x bus width x 2).
std::string floor_at_spec() {
  return fixed(floor_us(floor_n, bench()["device"].at("theoretical_gbps").get<double>()), 2);
}

// Question 2: the ceiling's time at 2^20 if it read at its rate at 2^28 ...
double predicted_small_us(const nlohmann::json& doc) {
  return floor_us(small_n, ceiling_gbps(doc, large_n));
}

// ... the part of its measured time that reading at that rate leaves unexplained ...
std::string unexplained_small_us() {
  const nlohmann::json doc = bench();
  const double measured = baseline(doc, small_n).at("stream_read").at("median_ms").get<double>();
  return fixed(measured * 1e3 - predicted_small_us(doc), 2);
}

// ... and the smallest size of the run at which the ceiling reads at most_of_the_rate of its rate
// at large_n.
std::string most_of_the_rate_from() {
  const nlohmann::json doc = bench();
  const double want = most_of_the_rate * ceiling_gbps(doc, large_n);
  std::uint64_t smallest = 0;
  for (const auto& b : doc["baselines"]) {
    const auto n = b.at("n").get<std::uint64_t>();
    if (b.at("stream_read_gbps").get<double>() >= want && (smallest == 0 || n < smallest))
      smallest = n;
  }
  if (smallest == 0)
    throw UsageError(committed_asset_path(bench_file) + ": the ceiling never reaches " +
                     fixed(100 * most_of_the_rate, 0) + "% of its rate at " + size_label(large_n));
  return size_label(smallest);
}

// Question 3: Little's law. The bytes an SM must keep on their way for the ceiling's rate at
// large_n with loads taking the DRAM chase's latency (GB/s x ns = bytes), over the bytes a block of
// block_threads keeps on their way with one float's load a thread.
std::string blocks_an_sm_needs() {
  const nlohmann::json doc = bench();
  const nlohmann::json chase = committed_json(latency_file, {"latency"})["latency"].at("chase");
  double dram_ns = 0;
  for (const auto& c : chase)
    if (c.value("memory", "") == "dram") dram_ns = c.at("ns_per_load").get<double>();
  if (dram_ns <= 0) throw UsageError(committed_asset_path(latency_file) + " has no DRAM chase");
  const double per_sm =
      ceiling_gbps(doc, large_n) * dram_ns / doc["device"].at("sm_count").get<double>();
  return fixed(per_sm / (block_threads * sizeof(float)), 1);
}

// Question 4: the roofline. A sum adds once for each float it reads: the additions a second at the
// ceiling's rate at large_n, in billions ...
double adds_g(const nlohmann::json& doc) { return ceiling_gbps(doc, large_n) / sizeof(float); }
std::string adds_g_per_s() { return fixed(adds_g(bench()), 0); }

// ... and their share of the FP32 adds' peak, as lesson 11's run records it, in %.
std::string share_of_fp32_peak() {
  const double peak = committed_json(latency_file, {"latency"})["latency"]
                          .at("roofline")
                          .at("fp32_add_peak_gflops")
                          .get<double>();
  return fixed(100 * adds_g(bench()) / peak, 2);
}

}  // namespace

std::vector<Question> questions() {
  // The tolerances accept a right computation from the rounded figures EXERCISE.md and the README
  // give (3352 GB/s, the table's GB/s, about 350 ns, 33454 GFLOP/s) and refuse a wrong one: a MB
  // taken for a MiB is 5% off, the memory's rate for the ceiling's 7%.
  return {
      {"floor_us_2p24",
       "A float is 4 bytes, and a GB/s is a byte a nanosecond: the bytes over the rate, in "
       "microseconds (within 1%).",
       floor_at_spec, within(0, 0.01)},
      {"predicted_us_2p20",
       "Take the ceiling's own GB/s at 2^28, not the memory's spec peak: the bytes of 2^20 floats "
       "over it, in microseconds (within 1%).",
       [] { return fixed(predicted_small_us(bench()), 3); }, within(0, 0.01)},
      {"unexplained_us_2p20",
       "Subtract your prediction from the ceiling's measured time at 2^20 (the README's table, or "
       "00_measuring --n 2^20 --backend sim), in microseconds (within 0.05).",
       unexplained_small_us, within(0.05, 0)},
      {"ninety_pct_from",
       "Take each time as the part you found unexplained, which hardly changes with N, plus the "
       "bytes at the 2^28 rate: the rate is 90% of it once reading takes nine times that part. "
       "Then 00_measuring --n 2^K --backend sim shows each size.",
       // One size only: the model and the run agree, and the sizes either side are far from 90%
       // or not the first above it.
       most_of_the_rate_from, size_within(0)},
      {"blocks_per_sm",
       "Little's law: GB/s x ns gives the bytes in flight. Use the ceiling's GB/s at 2^28 and the "
       "DRAM latency, share them out over the SMs, then divide by the 1 KiB one block keeps on "
       "its way; one decimal, not rounded up to whole blocks (within 2%).",
       blocks_an_sm_needs, within(0, 0.02)},
      {"adds_g_per_s",
       "A float sum does one addition for each 4-byte float it reads: the ceiling's GB/s at 2^28 "
       "over the bytes an addition takes, in billions a second (within 1%).",
       adds_g_per_s, within(0, 0.01)},
      {"fp32_add_pct",
       "Your additions a second over the FP32 adds' peak, in GFLOP/s both, as a percentage "
       "(within 0.05 points).",
       share_of_fp32_peak, within(0.05, 0)},
  };
}

}  // namespace rl::cost_bounds
