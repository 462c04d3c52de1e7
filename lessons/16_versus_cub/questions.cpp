#include "lessons/16_versus_cub/questions.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/host/answers.h"
#include "common/host/cli.h"
#include "common/host/results.h"
#include "common/host/table.h"

namespace rl::libraries {
namespace {

// The course's H100 run of the whole ladder from 2^10 to 2^28, with the harness's own CUB call
// beside every size: what the README's tables are made from.
const char* const ladder_file = "results/h100-bench.json";
constexpr std::uint64_t question_n = std::uint64_t{1} << 20;
// Two times closer than this are within noise of each other (question 2's threshold).
constexpr double close = 0.02;

nlohmann::json ladder() { return committed_json(ladder_file, {"runs", "baselines"}); }

double us(const nlohmann::json& timing) { return timing.at("median_ms").get<double>() * 1e3; }

// The record of lesson `lesson`'s plan `variant` at n.
nlohmann::json run(const nlohmann::json& doc, int lesson, std::string_view variant,
                   std::uint64_t n) {
  for (const auto& r : doc["runs"])
    if (r.value("lesson", 0) == lesson && r.value("variant", "") == variant &&
        r.value("n", std::uint64_t{0}) == n)
      return r;
  throw UsageError(committed_asset_path(ladder_file) + " has no run of lesson " +
                   std::to_string(lesson) + " " + std::string(variant) +
                   " at n = " + std::to_string(n));
}

// The harness's CUB call at n: its median time a call on the stream.
double cub_us(const nlohmann::json& doc, std::uint64_t n) {
  for (const auto& b : doc["baselines"])
    if (b.value("n", std::uint64_t{0}) == n) return us(b.at("cub"));
  throw UsageError(committed_asset_path(ladder_file) +
                   " has no CUB baseline at n = " + std::to_string(n));
}

std::string thrust_minus_cub() {
  const nlohmann::json doc = ladder();
  return fixed(us(run(doc, 16, "thrust", question_n).at("time")) - cub_us(doc, question_n), 1);
}

// The share of a Thrust call's time in which the GPU ran its kernels (its device time, a call
// alone, over its time a call), in %.
std::string thrust_busy_pct() {
  const nlohmann::json r = run(ladder(), 16, "thrust", question_n);
  return fixed(100 * us(r.at("device_time")) / us(r.at("time")), 1);
}

// The smallest size of the run at which lesson 12 and CUB take times within `close` of each
// other, as 2^k where it is a power of two.
std::string closes_at() {
  const nlohmann::json doc = ladder();
  std::uint64_t smallest = 0;
  for (const auto& r : doc["runs"]) {
    if (r.value("lesson", 0) != 12 || r.value("variant", "") != "") continue;
    const auto n = r.at("n").get<std::uint64_t>();
    const double a = us(r.at("time")), b = cub_us(doc, n);
    if (std::max(a, b) <= (1 + close) * std::min(a, b) && (smallest == 0 || n < smallest))
      smallest = n;
  }
  if (smallest == 0)
    throw UsageError(committed_asset_path(ladder_file) +
                     ": lesson 12 and CUB are never within 2% of each other");
  for (int k = 0; k < 63; ++k)
    if (smallest == std::uint64_t{1} << k) return "2^" + std::to_string(k);
  return std::to_string(smallest);
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  e.questions.push_back(
      {"thrust_minus_cub_2p20_us",
       "Subtract the harness's CUB call from the Thrust call, both at 2^20 and both a call's "
       "time in a stream of calls, in microseconds (within 10%).",
       thrust_minus_cub, within(0, 0.10)});
  e.questions.push_back(
      {"thrust_busy_pct_2p20",
       "The device time counts only the Thrust call's kernels; the rest of its time is the "
       "allocation, the copy back, the wait and the free. Divide its device time by its time "
       "at 2^20, in % (within 2 points).",
       thrust_busy_pct, within(2, 0)});
  e.questions.push_back(
      {"closes_at",
       "Compare lesson 12's time with the CUB baseline's at every size of the run (each power "
       "of two from 2^10 to 2^28, not only the README's), and take the smallest size where the "
       "larger is at most 2% above the smaller.",
       closes_at, size_within(0)});
  return e;
}

}  // namespace rl::libraries
