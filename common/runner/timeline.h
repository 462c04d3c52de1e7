#pragma once
// `reducelab timeline`: where one reduction call's time goes, from CUPTI's activity records: the
// host's runtime-API calls and the device's kernels, memsets and copies, with their timestamps.
// Built where CMake found CUPTI (RL_HAVE_CUPTI); elsewhere only --from works. The records are
// reduced by common/host/timeline_calls.h into a reducelab.timeline file (common/PROFILE.md).
#include <string>

namespace rl {

struct TimelineOptions {
  std::string sizes = "2^10,2^20,2^24";  // --n
  std::string lessons = "7,10,11,12";    // --lessons
  std::string calls = "20";              // --calls: timed calls per plan and size
  std::string json_path;                 // --json
  std::string from;                      // --from: print this record's table, record nothing
};

int run_timeline(const TimelineOptions& o);

// Whether this build records timelines, and if not, why (for its one line).
bool timeline_built();
std::string timeline_absent_reason();

}  // namespace rl
