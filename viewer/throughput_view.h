#pragma once
// GB/s against n for every rung of the ladder on one device, with that device's ceiling, CUB and
// DRAM peak; with a profile of the same device loaded, each point's tooltip and the panel under the
// plot (for the point clicked) show the counters Nsight Compute measured for its kernel.
#include <string>
#include <vector>

#include "viewer/plot_widget.h"
#include "viewer/profile_model.h"
#include "viewer/results_model.h"

namespace rl::viewer {

class ThroughputView {
 public:
  void draw(const RunResults& device, ImVec2 size, const std::vector<ProfileFile>& profiles);
  // Selects the point of (lesson, variant) at n (0: the point nearest the profiled n, else its
  // largest n), as a click would; "" when done, else the one-line reason it is not.
  std::string select(const RunResults& device, const std::vector<ProfileFile>& profiles, int lesson,
                     const std::string& variant, double n);

 private:
  LinePlot plot_;
};

}  // namespace rl::viewer
