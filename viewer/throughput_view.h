#pragma once
// GB/s against n for every rung of the ladder, with the ceiling and CUB, from the loaded results.
#include <vector>

#include "viewer/plot_widget.h"
#include "viewer/results_model.h"

namespace rl::viewer {

class ThroughputView {
 public:
  void draw(const std::vector<ResultsFile>& files, const std::vector<Series>& series, ImVec2 size);

 private:
  LinePlot plot_;
};

}  // namespace rl::viewer
