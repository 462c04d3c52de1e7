// What the simulator tests share: its options set for one scope, and every thread schedule to run
// under.
#pragma once
#include <string>
#include <vector>

#include "common/cuda_compat.h"

namespace simtest {

// Sets process-wide simulator options for one scope and restores the previous ones.
class ScopedOptions {
 public:
  explicit ScopedOptions(const rl::sim::Options& o) : saved_(rl::sim::options()) {
    rl::sim::set_options(o);
  }
  ~ScopedOptions() { rl::sim::set_options(saved_); }
  ScopedOptions(const ScopedOptions&) = delete;
  ScopedOptions& operator=(const ScopedOptions&) = delete;

 private:
  rl::sim::Options saved_;
};

inline rl::sim::Options make_options(rl::sim::Schedule s, unsigned seed = 1,
                                     unsigned host_threads = 0) {
  rl::sim::Options o;
  o.schedule = s;
  o.seed = seed;
  o.host_threads = host_threads;
  return o;
}

// lane_order, reverse_lanes and shuffled with several seeds.
inline std::vector<rl::sim::Options> every_schedule(unsigned host_threads = 0) {
  using rl::sim::Schedule;
  return {make_options(Schedule::lane_order, 1, host_threads),
          make_options(Schedule::reverse_lanes, 1, host_threads),
          make_options(Schedule::shuffled, 1, host_threads),
          make_options(Schedule::shuffled, 2, host_threads),
          make_options(Schedule::shuffled, 99, host_threads),
          make_options(Schedule::shuffled, 12345, host_threads)};
}

inline std::string describe(const rl::sim::Options& o) {
  switch (o.schedule) {
    case rl::sim::Schedule::lane_order:
      return "lane_order";
    case rl::sim::Schedule::reverse_lanes:
      return "reverse_lanes";
    case rl::sim::Schedule::shuffled:
      return "shuffled(seed " + std::to_string(o.seed) + ")";
  }
  return "?";
}

}  // namespace simtest
