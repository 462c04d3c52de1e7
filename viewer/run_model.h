#pragma once
// The Run panel's model: which of the course's kernels run on the simulator from inside the viewer,
// the run a student asks for (kernel, n, block, thread order, race detector), its refusal when it is
// too large, the run itself off the drawing loop (natively on a thread of its own; in the web page
// on a fiber that gives the page back every few milliseconds), its progress, its cancellation, and
// what it leaves: the total against the reference, the race or kernel report, and the trace that
// the tree view opens, with the solution's trace at the same input for a comparison. No ImGui.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/host/cli.h"
#include "common/host/plan.h"

namespace rl::viewer {

// One kernel the panel offers: a plan of the course on the simulator.
struct RunChoice {
  const Plan* plan = nullptr;
  std::string
      key;  // stable across renumbering: "sequential_addressing", "common_bugs/dropped_block"
  std::string label;    // "03 Sequential addressing", "18 broken: missing_barrier_in_loop"
  bool broken = false;  // one of lesson 17's broken kernels
  const Plan* solution = nullptr;  // what its trace is compared with (its own plan, or the fix)
};

// Every kernel of the course that runs on the simulator, in the course's order (the ladder's plans,
// then the side lesson's fixes and its broken kernels), from the course list (common/host/course.h).
const std::vector<RunChoice>& run_choices();
// The choice of that key, or -1.
int find_choice(const std::string& key);

struct RunRequest {
  int choice = 0;  // index into run_choices()
  std::uint64_t n = 1000;
  unsigned block = 256;
  SimSchedule order = SimSchedule::lane_order;
  bool racecheck = false;
  bool with_solution = false;  // also trace the solution on the same input, for a comparison
};

struct RunLimits {
  // A run whose estimate is over this is refused (natively the CLI's limit, sim_time_limit_s).
  double max_seconds = 600;
  std::uint64_t max_n = std::uint64_t{1} << 28;
  // Traces are recorded up to this n (larger ones run for the total only).
  std::uint64_t trace_max_n = std::uint64_t{1} << 14;
  // A run still going after this long is stopped (a kernel that never ends).
  double timeout_s = 60;
};

// What the panel can say at once about a request, before it runs: "" when it may run.
std::string check_request(const RunRequest& r, const RunLimits& limits);

struct RunOutcome {
  enum class Status { done, failed, refused, cancelled };
  Status status = Status::done;
  std::string line;  // one line: the verdict, the kernel's report, the refusal with its estimate
  double total = 0;  // what the kernel wrote
  double reference = 0;
  double tolerance = 0;
  bool verified = false;
  std::string trace;           // the run's trace file (JSON text); empty when not recorded
  std::string solution_trace;  // the solution's, with RunRequest::with_solution
  double run_seconds = 0;      // the checked run alone
  double seconds = 0;          // everything, traces included
};
const char* to_string(RunOutcome::Status s);

struct RunProgress {
  std::uint64_t launches = 0;     // launches begun so far
  std::uint64_t blocks_done = 0;  // of the launch running now
  std::uint64_t blocks = 0;
  double seconds = 0;
};

// The page's slice of a frame for a run, in ms: five times what the rest of the last frame took
// (drawing it: ~60 ms in software in a headless browser on two cores), at least `floor_ms` and at
// most 300 ms. A run then has about five sixths of the page's time, and the page still draws a few
// frames a second, its progress and Cancel button live.
double run_slice_ms(double floor_ms, double rest_of_frame_ms);

class RunModel {
 public:
  explicit RunModel(RunLimits limits = {});
  ~RunModel();  // cancels and waits for a run in flight
  RunModel(const RunModel&) = delete;
  RunModel& operator=(const RunModel&) = delete;

  // Starts a run (false, with the outcome already there, when check_request refuses it, or when
  // a run is in flight).
  bool start(const RunRequest& r);
  // Asks the run in flight to stop; it ends as cancelled at its next block or scheduling round.
  void cancel();
  // Once a frame: in the web page, runs the simulator for a slice of at least `slice_ms`
  // (run_slice_ms of what the rest of the last frame took); natively, only notices a finished run.
  // Returns true while a run is in flight.
  bool poll(double slice_ms = 25);
  bool busy() const { return busy_; }
  RunProgress progress() const;
  // The last run's outcome, once, after it finished.
  std::optional<RunOutcome> take_outcome();
  const RunLimits& limits() const { return limits_; }

  struct Flight;  // a run in flight (run_model.cpp; the simulator's hook reaches it)

 private:
  void finish();

  RunLimits limits_;
  bool busy_ = false;
  double last_poll_end_ms_ = -1;  // when the last slice ended (the page's clock); -1: none yet
  std::unique_ptr<Flight> flight_;
  std::optional<RunOutcome> outcome_;
};

}  // namespace rl::viewer
