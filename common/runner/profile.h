#pragma once
// `reducelab profile`: every ladder plan's kernels under Nsight Compute. For each GPU plan, size
// and block (256, and the plan's own where it differs) ncu runs this program's hidden
// `profile-call`, which makes exactly one reduction call of that plan; ncu's CSV of that process is
// then one record per kernel launch of the call (common/host/profile_record.h), all of them in one
// reducelab.profile file (common/PROFILE.md), with a table.
#include <string>

namespace rl {

struct ProfileOptions {
  std::string sizes = "2^20,2^24";  // --n
  std::string lessons;              // --lessons; empty: every lesson of the ladder
  std::string json_path;            // --json
  std::string ncu;                  // --ncu; empty: on PATH, else in the CUDA toolkit's bin
  std::string from;                 // --from: print this record's table, profile nothing
};

int run_profile(const ProfileOptions& o);

// The process ncu profiles: one call of one plan ("11" or "11/atomic_finish") on the GPU, at n
// floats and `block` threads. Prints nothing on success (ncu's CSV is what its output is for).
struct ProfileCallOptions {
  std::string plan, n, block;
};
int profile_call(const ProfileCallOptions& o);

}  // namespace rl
