#pragma once
// GB/s against n for every rung of the ladder on one device, with that device's ceiling, CUB and
// DRAM peak.
#include "viewer/plot_widget.h"
#include "viewer/results_model.h"

namespace rl::viewer {

class ThroughputView {
 public:
  void draw(const DeviceResults& device, ImVec2 size);

 private:
  LinePlot plot_;
};

}  // namespace rl::viewer
