#include "lessons/15_launch_cost/questions.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/results.h"
#include "common/host/table.h"

namespace rl::launch_floor {
namespace {

// The course's H100 measurement of what a launch costs (15_launch_cost --n 2^20, the README's
// first table), and its run of the ladder from 2^10 to 2^28 (the README's second).
const char* const launch_cost_file = "results/h100-launch-cost.json";
const char* const ladder_file = "results/h100-bench.json";

// How many times longer a launch of the empty kernel takes on the stream than from a graph.
double stream_over_graph() {
  const nlohmann::json doc = committed_json(launch_cost_file);
  const nlohmann::json& empty = doc.at("launch_costs").at("empty_kernel");
  return empty.at("stream").at("median_ms").get<double>() /
         empty.at("graph").at("median_ms").get<double>();
}

// The rows asked about, by the names an answer gives them: lesson 13's own plan, this lesson's
// own (its calls replayed from a graph) and this lesson's kernel launched on the stream.
struct Row {
  const char* name;
  int lesson;
  const char* variant;
};
constexpr Row rows[] = {{"13", 13, ""}, {"15", 15, ""}, {"on_stream", 15, "on_stream"}};

// The rows the committed ladder marks launch-bound at n (the harness's judgement: the GPU busy
// under 80% of a call's time), in the order above; "none" where there are none.
std::string launch_bound_at(std::uint64_t n) {
  const nlohmann::json doc = committed_json(ladder_file);
  std::string text;
  for (const Row& row : rows) {
    const auto& runs = doc.at("runs");
    const auto it = std::find_if(runs.begin(), runs.end(), [&](const nlohmann::json& r) {
      return r.value("lesson", 0) == row.lesson && r.value("variant", "") == row.variant &&
             r.value("n", std::uint64_t{0}) == n && r.contains("launch_bound");
    });
    if (it == runs.end())
      throw UsageError(committed_asset_path(ladder_file) + " has no run of " + row.name +
                       " at n = " + std::to_string(n));
    if ((*it)["launch_bound"].get<bool>())
      text += (text.empty() ? "" : ", ") + std::string(row.name);
  }
  return text.empty() ? "none" : text;
}

// The same rows, in any order, each once.
bool same_rows(const std::string& given, const std::string& right) {
  auto g = answer_words(given), r = answer_words(right);
  std::sort(g.begin(), g.end());
  std::sort(r.begin(), r.end());
  return std::adjacent_find(g.begin(), g.end()) == g.end() && g == r;
}

}  // namespace

std::vector<Question> questions() {
  std::vector<Question> q;
  q.push_back({"empty_stream_over_graph",
               "On the stream the host's driver work comes with every launch; a graph's replay "
               "does it once for all the launches it holds, and the GPU then runs them back to "
               "back. Divide the empty kernel's time a launch on the stream by its time from a "
               "graph (within 10%).",
               [] { return fixed(stream_over_graph(), 1); }, within(0, 0.10)});
  for (const int log2_n : {10, 20})
    q.push_back({"launch_bound_2p" + std::to_string(log2_n),
                 "A row is launch-bound where the GPU ran its kernels under 80% of the time a "
                 "call took: compare each row's device time with its time at this size, and "
                 "remember which of them reach the GPU through a graph.",
                 [log2_n] { return launch_bound_at(std::uint64_t{1} << log2_n); }, same_rows});
  return q;
}

}  // namespace rl::launch_floor
