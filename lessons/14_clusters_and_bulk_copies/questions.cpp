#include "lessons/14_clusters_and_bulk_copies/questions.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/answers.h"
#include "common/host/cli.h"
#include "common/host/plan.h"
#include "common/host/results.h"

namespace rl::clusters {
namespace {

// The cluster plans, by the blocks a cluster holds (plan.cu: the own plan's clusters are of 2).
const std::map<unsigned, std::string> cluster_variants = {
    {2, ""}, {4, "cluster4"}, {8, "cluster8"}, {16, "cluster16"}};
// Two times closer than this are a tie: either order answers.
constexpr double tie = 0.02;
// bulk_copy's stages: bulk_stage_quads float4s each (clusters_and_bulk_copies.cuh). The committed
// profile's shared-memory limit is checked against them below, so that a change to the kernel
// without a new profile is caught rather than graded.
constexpr std::size_t stage_bytes = 8 * 1024;
constexpr unsigned committed_stages = 3;
// The course's H100 profile of every plan, and the size the questions ask about.
const char* const profile_file = "profiles/h100-profile.json";
constexpr std::uint64_t question_n = std::uint64_t{1} << 24;

// Cluster size -> median time a call at 2^log2_n, from the course's H100 run of the whole ladder.
std::map<unsigned, double> cluster_times(int log2_n) {
  const std::string file = "results/h100-hopper-2p" + std::to_string(log2_n) + ".json";
  const nlohmann::json doc = committed_json(file);
  std::map<unsigned, double> ms;
  for (const auto& r : doc.value("runs", nlohmann::json::array()))
    for (const auto& [size, variant] : cluster_variants)
      if (r.value("lesson", 0) == 14 && r.value("variant", "") == variant)
        ms[size] = r.at("time").at("median_ms").get<double>();
  if (ms.size() != cluster_variants.size())
    throw UsageError(committed_asset_path(file) + " lacks a cluster plan's run");
  return ms;
}

// The first launch of one lesson 14 plan at 2^24, as the course's H100 profile recorded it.
nlohmann::json profiled(const std::string& variant, unsigned block) {
  const nlohmann::json doc = committed_json(profile_file, {"kernels"});
  for (const auto& k : doc.at("kernels"))
    if (k.value("lesson", 0) == 14 && k.value("variant", "") == variant &&
        k.value("n", std::uint64_t{0}) == question_n && k.value("block", 0u) == block &&
        k.value("launch", -1) == 0)
      return k;
  throw UsageError(committed_asset_path(profile_file) + " has no profile of lesson 14 '" + variant +
                   "' at 2^24 with blocks of " + std::to_string(block));
}

// The partials lesson 12's finish adds at 2^24 with 1024-thread blocks: one a cluster, so the
// plan's profiled grid over the cluster size.
std::string partials(unsigned size) {
  const unsigned grid = profiled(cluster_variants.at(size), 1024).at("grid").get<unsigned>();
  return std::to_string(grid / size);
}

// The blocks of bulk_copy an SM holds with `stages` stages: the fewest its block slots, warps and
// registers allow (the profile's limits) and its shared memory allows (the stages and the block's
// reserved share, out of the SM's).
unsigned bulk_blocks_per_sm(unsigned stages) {
  const nlohmann::json limit = profiled("bulk_copy", 256).at("counters").at("blocks_per_sm_limit");
  const DeviceShape sm;
  const auto by_shared = static_cast<unsigned>(
      sm.shared_bytes_per_sm / (stages * stage_bytes + sm.reserved_shared_per_block));
  if (stages == committed_stages && by_shared != limit.at("shared_mem").get<unsigned>())
    throw UsageError(committed_asset_path(profile_file) +
                     ": bulk_copy's shared-memory limit is not that of " +
                     std::to_string(committed_stages) + " stages: the kernel changed since");
  return std::min({limit.at("blocks").get<unsigned>(), limit.at("warps").get<unsigned>(),
                   limit.at("registers").get<unsigned>(), by_shared});
}

// The most bytes an SM has on their way into shared memory: every stage of every block, in KiB.
std::string in_flight_kib(unsigned stages) {
  return std::to_string(bulk_blocks_per_sm(stages) * stages * stage_bytes / 1024);
}

}  // namespace

LessonExtras extras() {
  LessonExtras e;
  for (const int log2_n : {20, 28})
    e.questions.push_back(
        {"order_2p" + std::to_string(log2_n),
         "Every cluster size pays two cluster barriers a block; what grows with the size is how "
         "many blocks fit on the GPU at once and how long rank 0 waits. Weigh that against how "
         "long a block reads at this size. Times within 2% of each other may come in either "
         "order.",
         [log2_n] { return fastest_first(named(cluster_times(log2_n))); },
         [log2_n](const std::string& given, const std::string&) {
           return same_order(given, named(cluster_times(log2_n)), tie);
         }});
  for (const unsigned size : {2u, 4u, 16u})
    e.questions.push_back({"partials_2p24_c" + std::to_string(size),
                           "One partial a cluster, not a block: divide the blocks the plan "
                           "launched at 2^24 (whole clusters, as many as fit at once, the README's "
                           "grids) by the cluster size.",
                           [size] { return partials(size); },
                           {}});
  for (const unsigned stages : {2u, 3u, 4u})
    e.questions.push_back(
        {"inflight_kib_s" + std::to_string(stages),
         "Blocks an SM holds times stages times 8 KiB. The blocks: the fewest that its block "
         "slots, warps, registers (the README's limiter) and shared memory allow; an SM has 228 "
         "KiB of shared memory, and each block costs 1 KiB more than its stages.",
         [stages] { return in_flight_kib(stages); },
         {}});
  return e;
}

}  // namespace rl::clusters
