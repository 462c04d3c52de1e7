#include "common/host/session.h"

#include <algorithm>
#include <bit>
#include <set>
#include <cmath>
#include <cstring>

namespace rl {

double gigabytes_per_second(std::uint64_t n, double ms) {
  return ms > 0 ? static_cast<double>(n) * sizeof(float) / (ms * 1e6) : 0.0;
}

Session::Session(Device& device, const RunOptions& options) : device_(device), options_(options) {}

Sampling Session::sampling() const {
  Sampling p;
  // Simulated times vary little and cost seconds each: three samples unless asked for more.
  p.samples = options_.reps_given || device_.backend() == Backend::gpu ? options_.reps : 3;
  return p;
}

void Session::prepare(std::uint64_t n) {
  if (n == n_) return;
  baseline_.reset();
  inputs_ = DeviceBuffer();  // free the old size's copies before asking for the new ones
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  // A clear answer before any allocation: the input, plus room for scratch and baselines.
  const std::size_t needed = bytes + bytes / 8 + (std::size_t{64} << 20);
  if (needed > device_.free_bytes())
    throw OutOfDeviceMemory("not enough memory: N = " + std::to_string(n) + " needs about " +
                            std::to_string(needed >> 20) + " MiB on the " + device_.name() + ", which has " +
                            std::to_string(device_.free_bytes() >> 20) + " MiB free");
  host_.assign(static_cast<std::size_t>(n), 0.0f);
  fill_input(host_, options_.seed, options_.distribution);
  reference_ = reference_sum(host_);

  stride_floats_ = std::max<std::size_t>(64, (static_cast<std::size_t>(n) + 63) / 64 * 64);  // 256-byte aligned copies
  copies_ = device_.rotation_copies(bytes);
  // Rotation is a refinement: use fewer copies rather than fail when memory is short.
  const std::size_t budget = device_.free_bytes() / 2;
  copies_ = std::max<std::size_t>(1, std::min(copies_, budget / (stride_floats_ * sizeof(float))));
  inputs_ = DeviceBuffer(device_, copies_ * stride_floats_ * sizeof(float));
  auto* base = inputs_.get<float>();
  device_.upload(base, host_.data(), bytes);
  // Fill the other copies by doubling: copy [0, k) onto [k, 2k), log2(copies) transfers.
  for (std::size_t have = 1; have < copies_; have *= 2) {
    const std::size_t count = std::min(have, copies_ - have);
    device_.copy(base + have * stride_floats_, base, count * stride_floats_ * sizeof(float));
  }
  device_.synchronize();
  copy_ptrs_.clear();
  for (std::size_t k = 0; k < copies_; ++k) copy_ptrs_.push_back(base + k * stride_floats_);
  n_ = n;
}

CaseResult Session::run(const Plan& plan, unsigned block, bool time_it) {
  const DeviceShape shape = device_.shape();
  DeviceBuffer out(device_, sizeof(float));
  DeviceBuffer scratch(device_, plan.scratch_bytes(n_, block, shape));
  auto call = [&](std::size_t copy) {
    plan.reduce({copy_ptrs_[copy], out.get<float>(), n_, block, scratch.get(), shape, device_.stream()});
  };
  // Poisoned output and scratch: a kernel that forgets to write shows NaN, never a stale right answer.
  device_.poison(out.get(), sizeof(float));
  if (scratch.bytes()) device_.poison(scratch.get(), scratch.bytes());
  call(0);
  device_.synchronize();
  float got = 0.0f;
  device_.download(&got, out.get(), sizeof(float));

  CaseResult r;
  r.plan = plan;
  r.n = n_;
  r.block = block;
  const std::uint64_t depth = plan.depth(n_, block, shape);
  r.check = {got, reference_, tolerance(reference_, depth), within_tolerance(got, reference_, depth)};
  if (time_it && r.check.verified) {
    r.timing = device_.time(call, copies_, sampling());
    if (!r.timing->simulated) r.gbps = gigabytes_per_second(n_, r.timing->ms.median);
  }
  return r;
}

std::size_t Session::distinct_results(const Plan& plan, unsigned block, unsigned runs) {
  const DeviceShape shape = device_.shape();
  DeviceBuffer out(device_, sizeof(float));
  DeviceBuffer scratch(device_, plan.scratch_bytes(n_, block, shape));
  std::set<std::uint32_t> patterns;
  for (unsigned r = 0; r < runs; ++r) {
    device_.poison(out.get(), sizeof(float));
    plan.reduce({copy_ptrs_[0], out.get<float>(), n_, block, scratch.get(), shape, device_.stream()});
    device_.synchronize();
    float got = 0.0f;
    device_.download(&got, out.get(), sizeof(float));
    patterns.insert(std::bit_cast<std::uint32_t>(got));
  }
  return patterns.size();
}

const Baseline& Session::baseline() {
  if (baseline_) return *baseline_;
  Baseline b;
  b.n = n_;
  b.ceiling = device_.ceiling(copy_ptrs_.data(), copies_, n_, sampling());
  DeviceBuffer out(device_, sizeof(float));
  device_.poison(out.get(), sizeof(float));
  b.cub = device_.cub_sum(copy_ptrs_.data(), copies_, n_, sampling(), out.get<float>());
  if (b.cub) {
    float got = 0.0f;
    device_.download(&got, out.get(), sizeof(float));
    // CUB's plan is its own: bound its depth generously by a per-thread run over all SMs' threads.
    const DeviceShape s = device_.shape();
    const std::uint64_t threads = std::uint64_t{s.sm_count} * s.max_threads_per_sm;
    const std::uint64_t depth = summation_depth(n_, n_ / std::max<std::uint64_t>(threads, 1) + 64);
    b.cub_check = Check{got, reference_, tolerance(reference_, depth), within_tolerance(got, reference_, depth)};
  }
  baseline_ = b;
  return *baseline_;
}

}  // namespace rl
