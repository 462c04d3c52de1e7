#pragma once
// Lesson 22 on several GPUs of one device: the aggregate GB/s against the GPU count beside the
// ideal (the one-GPU rate times the count), the scaling efficiency against the GPU count, and the
// figures as a table. Its own view: these runs read GPUs x the memory of one, so they never share
// a plot (or its peak) with one-GPU runs.
#include <imgui.h>

#include "viewer/plot_widget.h"
#include "viewer/results_model.h"

namespace rl::viewer {

class ScalingView {
 public:
  void draw(const RunResults& device, ImVec2 size);

 private:
  LinePlot rate_, efficiency_;
};

}  // namespace rl::viewer
