#pragma once
// The ladder at one chosen n on one device, as bars: speed-up over lesson 01 and % of that
// device's streaming ceiling.
#include <imgui.h>

#include "viewer/results_model.h"

namespace rl::viewer {

class BarView {
 public:
  void draw(const RunResults& device, ImVec2 size);
  double chosen_n = 0;  // 0: the largest size measured
  bool variants = true;
};

}  // namespace rl::viewer
