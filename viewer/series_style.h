#pragma once
// How each series of a throughput plot is drawn: its colour (no other series on the plot has it),
// dash and weight. Pure, so that "one colour per series" is a unit test.
#include <vector>

#include "viewer/palette.h"
#include "viewer/results_model.h"

namespace rl::viewer {

struct SeriesStyle {
  Rgba color = 0;
  bool dashed = false;
  float thickness = 2.f;
};

// One style per series, in order: lessons take distinct palette colours in turn; the ceiling is
// white and CUB gold, both dashed.
std::vector<SeriesStyle> series_styles(const std::vector<Series>& series);

}  // namespace rl::viewer
