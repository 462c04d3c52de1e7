#pragma once
// One measuring session on one device: makes the input for a size once, checks any plan against the
// CPU reference, times it over rotated copies, and measures the ceiling and CUB on the same data.
#include <cstdint>
#include <optional>
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

struct Baseline {
  std::uint64_t n = 0;
  std::optional<Device::Ceiling> ceiling;
  std::optional<Timing> cub;
  std::optional<Check> cub_check;
};

struct CaseResult {
  Plan plan;
  std::uint64_t n = 0;
  unsigned block = 0;
  Check check;
  std::optional<Timing> timing;
  double gbps = 0.0;  // bytes of input over the median time; 0 when not timed or simulated
};

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
  // Ceiling and CUB at the current size, measured once per size.
  const Baseline& baseline();

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
