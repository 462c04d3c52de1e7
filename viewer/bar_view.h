#pragma once
// The ladder at one chosen n, as bars: speed-up over lesson 01 and % of the streaming ceiling.
#include <vector>

#include <imgui.h>

#include "viewer/results_model.h"

namespace rl::viewer {

class BarView {
 public:
  void draw(const std::vector<Series>& series, ImVec2 size);
  double chosen_n = 0;  // 0: the largest size measured
  bool variants = true;
};

}  // namespace rl::viewer
