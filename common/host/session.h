#pragma once
// One measuring session on one device: makes the input for a size once, checks any plan against the
// CPU reference, times it over rotated copies, and measures the ceiling and CUB on the same data.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/host/cli.h"
#include "common/host/device.h"
#include "common/host/reference.h"

namespace rl {

struct Check {
  double got = 0.0;
  Reference reference;
  double tolerance = 0.0;
  bool verified = false;
};

// A rung that read the input faster than the ceiling kernel launched the same way (at large N,
// kernels at the memory's limit differ by their samples' noise; at small N, by how fast the host
// launched each): its time becomes that way's ceiling.
struct FastestRead {
  LaunchWay way;
  double ms = 0.0;
  std::string by;  // "lesson 12 single_pass / atomic_finish"
};

struct CaseResult;

// The yardsticks at one size: the streaming ceiling and CUB. `ceiling` and `cub` are launched plainly
// on the stream; `ceilings` holds the ceiling launched each other way a rung of the table was (its
// LaunchWay: with programmatic dependent launch, recorded into a graph), and `cub_graph` CUB
// recorded into a graph, so that every rung is compared with yardsticks launched as it is.
struct Baseline {
  std::uint64_t n = 0;
  std::optional<Device::Ceiling> ceiling;
  std::optional<Timing> cub;
  std::optional<Check> cub_check;
  std::optional<Summary> cub_device_ms;   // CUB's device time (Device::device_time)
  std::vector<Device::Ceiling> ceilings;  // launched the other ways
  std::optional<Timing> cub_graph;

  std::vector<FastestRead> fastest;  // ways where a rung read faster than the kernel

  const Device::Ceiling* ceiling_for(LaunchWay way) const;
  const Timing* cub_for(LaunchPath launch) const;
  // Lowers that way's ceiling to r's time where r, verified, read faster than it.
  void note_read(const CaseResult& r);
  const FastestRead* fastest_for(LaunchWay way) const;
  // The ceiling's time a call, launched `way`: the kernel's, or the fastest rung's (0: not measured).
  double ceiling_ms(LaunchWay way) const;
};

struct CaseResult {
  Plan plan;
  std::uint64_t n = 0;
  unsigned block = 0;
  // The threads a block of the checked call's first launch had, where it was not `block` (a variant
  // that launches three quarters of the block asked for); 0 where it was, or nothing was seen.
  unsigned launched_block = 0;
  Check check;
  std::optional<Timing> timing;  // stream time (or graph time: timing->way), per call
  double gbps = 0.0;  // bytes of input over the median time; 0 when not timed or simulated
  std::optional<Summary> device_ms;  // device time per call (Device::device_time), where measured
};

// The rung's share of the streaming ceiling timed the same way, in %. Throws std::invalid_argument
// where the ceiling was launched another way than the rung's timing: a rung launched with
// programmatic dependent launch or from a graph against a plainly launched ceiling compares launch
// paths, not kernels (and can pass 100%).
double percent_of_ceiling(const Timing& rung, const Device::Ceiling& ceiling);
// The same from a result and the baseline: empty where the rung was not timed on a GPU or the
// ceiling was not measured its way. The ceiling is the fastest read of the input measured that way
// in the run: the read-only kernel's, or a rung's that was faster (Baseline::note_read), so that no
// rung passes 100%.
std::optional<double> percent_of_ceiling(const CaseResult& r, const Baseline& b);
// CUB's time over the rung's, CUB launched as the rung's calls were (on the stream or in a graph).
std::optional<double> times_cub(const CaseResult& r, const Baseline& b);
// Whether the host's launches, not the GPU, set the rung's time: its device time is under 80% of
// its time per call, so the GPU waited for the host a fifth of the time or more.
bool launch_bound(const Timing& t, const std::optional<Summary>& device_ms);

class Session {
 public:
  Session(Device& device, const RunOptions& options);

  // Makes (or keeps) the input of size n on the host and in the device's rotated copies.
  void prepare(std::uint64_t n);
  // Throws OutOfDeviceMemory (one line, with the sizes) when an input of n floats cannot fit: on
  // the device with room for scratch, and on the host; on the simulator both are this machine's
  // memory.
  void check_fits(std::uint64_t n) const;
  std::uint64_t n() const { return n_; }
  const std::vector<float>& host_input() const { return host_; }
  const Reference& reference() const { return reference_; }
  const float* device_input() const { return copy_ptrs_.empty() ? nullptr : copy_ptrs_[0]; }
  // The rotated copies of the input on the device (what timed calls cycle through so that each
  // reads its input from DRAM): how many, and the k-th.
  std::size_t copies() const { return copy_ptrs_.size(); }
  const float* device_input(std::size_t copy) const { return copy_ptrs_[copy]; }

  CaseResult run(const Plan& plan, unsigned block, bool time_it);
  // Runs the plan `runs` times on the same input and counts the distinct bit patterns of the
  // result: 1 means bitwise reproducible.
  std::size_t distinct_results(const Plan& plan, unsigned block, unsigned runs);
  // Ceiling and CUB at the current size, measured once per size: plainly on the stream, and the
  // ceiling also each way the given plans are launched (CUB also in a graph where one is).
  const Baseline& baseline(const Plans& plans = {});
  // Lowers each way's ceiling to the fastest of `results` launched that way (Baseline::note_read);
  // call it with a table's runs before computing their % of ceiling.
  void note_reads(const std::vector<CaseResult>& results);

  Device& device() { return device_; }
  const RunOptions& options() const { return options_; }
  Sampling sampling() const;

 private:
  Device& device_;
  RunOptions options_;
  std::uint64_t n_ = ~std::uint64_t{0};
  std::vector<float> host_;
  Reference reference_;
  DeviceBuffer inputs_;  // `copies_` rotated copies of the input, 256-byte strided
  std::size_t copies_ = 1;
  std::size_t stride_floats_ = 0;
  std::vector<const float*> copy_ptrs_;
  std::optional<Baseline> baseline_;
};

double gigabytes_per_second(std::uint64_t n, double ms);

}  // namespace rl
