#pragma once
// `reducelab beyond`: the lessons beyond the sum (16 operators x types, 17 rows, 18 columns, 19 any
// axes), each its own program, run one after another from the runner's folder, their tables printed
// as they come and merged into one JSON record (schema reducelab.beyond, common/RESULTS.md).
#include <string>

namespace rl {

struct BeyondOptions {
  // "gpu" or "sim"; empty: each lesson's default (the GPU when one is visible)
  std::string backend;
  std::string baseline_path;  // PyTorch's times for lessons 19-21 (tests/device/torch_baselines.py)
  std::string json_path;      // the merged record; empty: none
  bool check_only = false;    // verify, don't time
};

// `self` is the runner's argv[0]. Exit code: 0 when every lesson succeeded.
int run_beyond(const char* self, const BeyondOptions& o);

}  // namespace rl
