#include "lessons/21_any_axes/questions.h"

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"
#include "common/host/results.h"

namespace rl::axes_by_hand {
namespace {

// The plan is the exercise: a student build compiles the student's plan_axes, so no answer may
// come from calling it. The answers come from the course's own plan instead, as the solution build
// recorded it for this tensor (`21_any_axes --backend sim --shape 2,3,4,5 --strides 60,1,15,3
// --axes 1 --axes 0,2 --axes 1,3 --axes none --check-only --json FILE`): each record's `plan` and
// `strategy`.
const char* const recorded_file = "traces/questions/21_any_axes.2x3x4x5.sim.json";
const std::vector<std::int64_t> sizes{2, 3, 4, 5}, strides{60, 1, 15, 3};

struct AxisSet {
  const char* key;  // the answers' key suffix
  std::vector<int> axes;
};
const AxisSet axis_sets[] = {{"1", {1}}, {"0_2", {0, 2}}, {"1_3", {1, 3}}, {"none", {}}};

// The course's plan of the question's tensor reduced over `axes`.
nlohmann::json recorded_plan(const std::vector<int>& axes) {
  const nlohmann::json doc = committed_json(recorded_file, {"runs"});
  for (const auto& r : doc["runs"])
    if (r.value("shape", std::vector<std::int64_t>{}) == sizes &&
        r.value("strides", std::vector<std::int64_t>{}) == strides &&
        r.value("axes", std::vector<int>{-1}) == axes && r.contains("plan") &&
        r.contains("strategy"))
      return r;
  // appended piece by piece: GCC 12's -Wrestrict misfires on "" + string
  std::string named;
  for (const int a : axes) {
    if (!named.empty()) named += ',';
    named += std::to_string(a);
  }
  throw UsageError(committed_asset_path(recorded_file) + " has no plan for the axes {" + named +
                   "}");
}

// The merged axes, outermost first, as the answers write them (and axes_cases.cpp's merged_text):
// size, K (kept) or R (reduced), '/', stride. Read from the plan's own words, one "[size keep,
// stride s]" an axis (AxesPlan::describe).
std::string merged(const std::vector<int>& axes) {
  const std::string plan = recorded_plan(axes)["plan"].get<std::string>();
  static const std::regex axis(R"(\[(\d+) (keep|reduce), stride (\d+)\])");
  std::string text;
  for (auto m = std::sregex_iterator(plan.begin(), plan.end(), axis); m != std::sregex_iterator();
       ++m) {
    if (!text.empty()) text += ' ';
    text += (*m)[1].str() + ((*m)[2] == "keep" ? "K/" : "R/") + (*m)[3].str();
  }
  return text;
}

std::string strategy(const std::vector<int>& axes) {
  return recorded_plan(axes)["strategy"].get<std::string>();
}

}  // namespace

std::vector<Question> questions() {
  std::vector<Question> q;
  for (const AxisSet& s : axis_sets)
    q.push_back({std::string("merged_") + s.key,
                 "Sort the axes by stride, largest first, and drop none (no size is 1). Then fold "
                 "two neighbours only where both are kept or both reduced and one step of the "
                 "outer is a whole run of the inner three times over: in the input, in the output "
                 "(row-major over the kept axes in the caller's order) and in the reduced "
                 "numbering (the same over the reduced axes).",
                 [axes = s.axes] { return merged(axes); },
                 {}});
  for (const AxisSet& s : axis_sets)
    q.push_back({std::string("strategy_") + s.key,
                 "Look at the innermost merged axis first: who owns it, a kept or a reduced axis? "
                 "Then count the merged axes on each side, and check the innermost stride: only "
                 "one axis a side at most, and a stride of 1, make the plain matrix case.",
                 [axes = s.axes] { return strategy(axes); },
                 {}});
  return q;
}

}  // namespace rl::axes_by_hand
