#include "lessons/13_dependent_launch/questions.h"

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

namespace rl::overlap {
namespace {

// The course's H100 runs of the whole ladder, one file a size, each plan beside the streaming
// read launched both ways (tests/device/run.sh hopper): what the README's tables are made from.
std::string measured_file(int log2_n) {
  return "results/h100-hopper-2p" + std::to_string(log2_n) + ".json";
}

nlohmann::json measured(int log2_n) {
  return committed_json(measured_file(log2_n), {"runs", "baselines"});
}

double median_us(const nlohmann::json& timing) {
  return timing.at("median_ms").get<double>() * 1e3;
}

// A plan's median in microseconds: `clock` is "time" (a call in a stream of calls) or
// "device_time" (a call alone, on the GPU's clock).
double plan_us(int log2_n, std::string_view variant, const char* clock = "time") {
  const nlohmann::json doc = measured(log2_n);
  for (const auto& r : doc["runs"])
    if (r.value("lesson", 0) == 13 && r.value("variant", "") == variant && r.contains(clock))
      return median_us(r[clock]);
  throw UsageError(committed_asset_path(measured_file(log2_n)) + " has no run of lesson 13's " +
                   (variant.empty() ? std::string("own plan") : std::string(variant)));
}

// The streaming read of the same session: launched plainly ("stream"), or launched as the own
// plan is ("stream+PDL", among its other ways).
double ceiling_us(int log2_n, std::string_view way, const char* clock = "time") {
  const nlohmann::json doc = measured(log2_n);
  const nlohmann::json& b = doc["baselines"].at(0);
  if (way == "stream")
    return median_us(
        b.at(std::string_view(clock) == "time" ? "stream_read" : "stream_read_device_time"));
  for (const auto& w : b.value("stream_read_ways", nlohmann::json::array()))
    if (w.value("launch", "") == way && w.contains(clock)) return median_us(w[clock]);
  throw UsageError(committed_asset_path(measured_file(log2_n)) +
                   " has no streaming read launched " + std::string(way));
}

// What the attribute on the finishing launch saves a call: two_kernel's time minus
// two_kernel_pdl's.
double saving_us(int log2_n) {
  return plan_us(log2_n, "two_kernel") - plan_us(log2_n, "two_kernel_pdl");
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const int log2_n : {10, 24})
    e.questions.push_back(
        {"saving_2p" + std::to_string(log2_n) + "_us",
         "Both plans run the same two kernels; the attribute lets the second be scheduled before "
         "the first ends, so a call saves at most the gap between them. Take two_kernel's time "
         "a call minus two_kernel_pdl's at this size, in microseconds (within 0.05 us or 10%).",
         [log2_n] { return fixed(saving_us(log2_n), 2); }, within(0.05, 0.10)});
  e.questions.push_back(
      {"pct_plain_2p10",
       "Divide the plainly launched streaming read's time a call at 2^10 by the own plan's, as "
       "the ladder's % of the ceiling does. Nothing stops calls that overlap from beating a "
       "kernel whose calls cannot (within 2 points).",
       [] { return fixed(100 * ceiling_us(10, "stream") / plan_us(10, ""), 1); }, within(2, 0)});
  e.questions.push_back(
      {"device_pct_2p10",
       "A call alone has no call before it to overlap. Divide the device time of the streaming "
       "read launched with the attribute by the own plan's device time, both at 2^10 (within 3 "
       "points).",
       [] {
         return fixed(
             100 * ceiling_us(10, "stream+PDL", "device_time") / plan_us(10, "", "device_time"), 1);
       },
       within(3, 0)});
  return e;
}

}  // namespace rl::overlap
