#include "common/host/sim_bridge.h"

#include "common/sim/cuda_sim.h"

namespace rl {

void apply_simulator_options(const RunOptions& o) {
  sim::Options s;
  switch (o.schedule) {
    case SimSchedule::lane_order:
      s.schedule = sim::Schedule::lane_order;
      break;
    case SimSchedule::reverse_lanes:
      s.schedule = sim::Schedule::reverse_lanes;
      break;
    case SimSchedule::shuffled:
      s.schedule = sim::Schedule::shuffled;
      break;
  }
  s.seed = static_cast<unsigned>(o.seed);
  s.host_threads = o.sim_threads;
  s.racecheck = racecheck_on(o);
  s.late_visibility = o.sim_late_visibility;
  // the grader watches its child's progress itself
  s.progress_every_s = o.grade ? 0.0 : o.sim_progress_s;
  sim::set_options(s);
}

}  // namespace rl
