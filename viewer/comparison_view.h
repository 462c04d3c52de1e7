#pragma once
// The lessons beyond the sum: one panel per loaded table (lesson 13's operators x types, 14-16's
// shapes), a bar per run, its length the run's GB/s, labelled with its ratios to the libraries.
#include <vector>

#include <imgui.h>

#include "viewer/comparison_model.h"

namespace rl::viewer {

class ComparisonView {
 public:
  void draw(const std::vector<ComparisonFile>& files, ImVec2 size);
};

}  // namespace rl::viewer
