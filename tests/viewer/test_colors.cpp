// One colour per series: no two series of a plot share one, the reference lines included.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "viewer/palette.h"
#include "viewer/results_model.h"
#include "viewer/series_style.h"

using namespace rl::viewer;

TEST_CASE("every series of the H100 ladder has its own colour, apart from the others", "[colors]") {
  const ResultsFile f = load_results(std::string(RL_REPO_ROOT) + "/assets/results/h100-bench.json");
  const auto runs = group_by_run({f});
  REQUIRE(runs.size() == 1);
  const auto& series = runs[0].series;
  // every lesson and variant the bench timed on the GPU, the ceiling, CUB
  std::set<std::string> plans;
  for (const auto& r : f.runs)
    if (r.backend == "gpu") plans.insert(std::to_string(r.lesson) + "/" + r.variant);
  REQUIRE(series.size() == plans.size() + 2);
  const auto styles = series_styles(series);
  std::set<Rgba> seen;
  for (const auto& s : styles) REQUIRE(seen.insert(s.color).second);
  // The palette's twenty hues stay well apart; a ladder of more series than that (lessons 11 and 13
  // bring it to 36) reuses them darker or lighter, unique but closer, and the legend hides series.
  const std::size_t palette = std::min<std::size_t>(styles.size(), 20);
  for (std::size_t i = 0; i < palette; ++i) {
    for (std::size_t j = i + 1; j < palette; ++j) {
      INFO(series[i].label << " and " << series[j].label);
      REQUIRE(color_distance(styles[i].color, styles[j].color) > 40);
    }
  }
}

TEST_CASE("past the palette the colours stay unique", "[colors]") {
  const auto c = distinct_colors(90);
  REQUIRE(std::set<Rgba>(c.begin(), c.end()).size() == 90);
  for (Rgba x : c) {
    REQUIRE(x != kCeilingRgba);
    REQUIRE(x != kCubRgba);
  }
}
