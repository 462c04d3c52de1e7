#pragma once
// The Run panel (a view of the viewer, native and in the web page): pick a kernel of the course, n,
// block, thread order and the race detector, run it on the simulator without stopping the drawing,
// follow its progress, cancel it; a finished run's traces open in the tree view (App). The model is
// RunModel (run_model.h); this file only draws it.
#include <functional>
#include <optional>
#include <string>

#include "viewer/run_model.h"

namespace rl::viewer {

class RunPanel {
 public:
  explicit RunPanel(RunLimits limits);

  // Once a frame, whatever the view: lets the run go on (in the page, for a slice of the frame).
  // Returns the outcome of a run that has just finished, once.
  std::optional<RunOutcome> poll();
  // The page's slice of each frame for a run (web build only; 0: the run goes to its end at once).
  double slice_ms = 25;
  void draw();  // the panel, in the current ImGui window

  // Starts the request (as the Run button does); false when refused or busy (the reason is shown).
  bool run(const RunRequest& r);
  RunRequest& request() { return request_; }
  const RunRequest& last_request() const { return last_; }
  const std::string& status() const { return status_; }
  bool busy() const { return model_.busy(); }
  // Told of every finished run (the web page writes it into the page).
  std::function<void(const RunRequest&, const RunOutcome&)> on_finish;

 private:
  RunModel model_;
  RunRequest request_;
  RunRequest last_;
  char n_text_[32] = "1000";
  std::string status_;
};

}  // namespace rl::viewer
