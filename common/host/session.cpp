#include "common/host/session.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "common/host/launch_observer.h"

namespace rl {

std::size_t host_free_bytes() {
  // MemAvailable counts the page cache the kernel would give back; free pages alone do not.
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(64, '\n');
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                               : 0;
}

double gigabytes_per_second(std::uint64_t n, double ms) {
  return ms > 0 ? static_cast<double>(n) * sizeof(float) / (ms * 1e6) : 0.0;
}

Session::Session(Device& device, const RunOptions& options) : device_(device), options_(options) {}

Sampling Session::sampling() const {
  Sampling p;
  // Simulated times vary little and cost seconds each: three samples unless asked for more.
  p.samples = samples(options_, device_.backend());
  return p;
}

void Session::prepare(std::uint64_t n) {
  if (n == n_) return;
  baseline_.reset();
  inputs_ = DeviceBuffer();  // free the old size's copies before asking for the new ones
  check_fits(n);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  host_.assign(static_cast<std::size_t>(n), 0.0f);
  fill_run_input(host_, options_.seed, options_.distribution);
  reference_ = reference_sum(host_);

  // 256-byte aligned copies
  stride_floats_ = std::max<std::size_t>(64, (static_cast<std::size_t>(n) + 63) / 64 * 64);
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

void Session::check_fits(std::uint64_t n) const {
  // In doubles: n may be up to 2^62, whose bytes overflow 64 bits.
  const double bytes = static_cast<double>(n) * sizeof(float);
  const double mib = 1024.0 * 1024.0;
  const auto text = [&](double b) {
    return b >= 10 * 1024 * mib
               ? std::to_string(static_cast<std::uint64_t>(std::ceil(b / mib / 1024))) + " GiB"
               : std::to_string(static_cast<std::uint64_t>(std::ceil(b / mib))) + " MiB";
  };
  // The input, plus room for scratch and baselines, on the device; the host holds its own copy.
  const double on_device = bytes + bytes / 8 + 64 * mib;
  if (device_.backend() == Backend::sim) {
    const double needed = on_device + bytes;
    if (needed > static_cast<double>(device_.free_bytes()))
      throw OutOfDeviceMemory(
          "not enough memory: N = " + std::to_string(n) + " needs about " + text(needed) +
          " on the CPU SIMT simulator (the input, its copy in simulated device memory, and "
          "scratch), which has " +
          text(static_cast<double>(device_.free_bytes())) + " free");
    return;
  }
  if (on_device > static_cast<double>(device_.free_bytes()))
    throw OutOfDeviceMemory("not enough memory: N = " + std::to_string(n) + " needs about " +
                            text(on_device) + " on the " + device_.name() + ", which has " +
                            text(static_cast<double>(device_.free_bytes())) + " free");
  if (bytes > static_cast<double>(host_free_bytes()))
    throw OutOfDeviceMemory("not enough host memory: N = " + std::to_string(n) + " needs about " +
                            text(bytes) + " for the input on the host, which has " +
                            text(static_cast<double>(host_free_bytes())) + " free");
}

CaseResult Session::run(const Plan& plan, unsigned block, bool time_it) {
  const DeviceShape shape = device_.shape();
  DeviceBuffer out(device_, sizeof(float));
  DeviceBuffer scratch(device_, plan.scratch_bytes(n_, block, shape));
  auto call = [&](std::size_t copy) {
    plan.reduce(
        {copy_ptrs_[copy], out.get<float>(), n_, block, scratch.get(), shape, device_.stream()});
  };
  // Poisoned output and scratch: a kernel that forgets to write shows NaN, never a stale right
  // answer.
  device_.poison(out.get(), sizeof(float));
  if (scratch.bytes()) device_.poison(scratch.get(), scratch.bytes());
  // The first launch's block size, passed on to any observer already listening (a trace's).
  unsigned launched = 0;
  const LaunchObserver outer = launch_observer();
  set_launch_observer([&](const LaunchShape& s) {
    if (launched == 0) launched = s.block;
    if (outer) outer(s);
  });
  try {
    call(0);
    device_.synchronize();
  } catch (...) {
    set_launch_observer(outer);
    throw;
  }
  set_launch_observer(outer);
  float got = 0.0f;
  device_.download(&got, out.get(), sizeof(float));

  CaseResult r;
  r.plan = plan;
  r.n = n_;
  r.block = block;
  r.launched_block = launched != block ? launched : 0;
  const std::uint64_t depth = plan.depth(n_, block, shape);
  r.check = {got, reference_, tolerance(reference_, depth),
             within_tolerance(got, reference_, depth)};
  if (time_it && r.check.verified) {
    r.timing = device_.time(call, copies_, sampling(), plan.way.launch);
    r.timing->way = plan.way;
    if (!r.timing->simulated) {
      r.gbps = gigabytes_per_second(n_, r.timing->ms.median);
      r.device_ms = device_.device_time(call, copies_, device_time_calls, plan.way.launch);
    }
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
    plan.reduce(
        {copy_ptrs_[0], out.get<float>(), n_, block, scratch.get(), shape, device_.stream()});
    device_.synchronize();
    float got = 0.0f;
    device_.download(&got, out.get(), sizeof(float));
    patterns.insert(std::bit_cast<std::uint32_t>(got));
  }
  return patterns.size();
}

const Baseline& Session::baseline(const Plans& plans) {
  if (!baseline_) {
    Baseline b;
    b.n = n_;
    b.ceiling = device_.ceiling(copy_ptrs_.data(), copies_, n_, sampling());
    DeviceBuffer out(device_, sizeof(float));
    device_.poison(out.get(), sizeof(float));
    b.cub = device_.cub_sum(copy_ptrs_.data(), copies_, n_, sampling(), out.get<float>());
    if (b.cub) {
      float got = 0.0f;
      device_.download(&got, out.get(), sizeof(float));
      // CUB's plan is its own: bound its depth generously by a per-thread run over all SMs'
      // threads.
      const DeviceShape s = device_.shape();
      const std::uint64_t threads = std::uint64_t{s.sm_count} * s.max_threads_per_sm;
      const std::uint64_t depth =
          summation_depth(n_, n_ / std::max<std::uint64_t>(threads, 1) + 64);
      b.cub_check = Check{got, reference_, tolerance(reference_, depth),
                          within_tolerance(got, reference_, depth)};
      b.cub_device_ms = device_.cub_device_time(copy_ptrs_.data(), copies_, n_, out.get<float>());
    }
    baseline_ = b;
  }
  // The other ways the plans are launched, each measured once.
  Baseline& b = *baseline_;
  for (const Plan& p : plans) {
    if (p.backend != device_.backend() || !b.ceiling) continue;
    if (!b.ceiling_for(p.way))
      if (auto c = device_.ceiling(copy_ptrs_.data(), copies_, n_, sampling(), p.way))
        b.ceilings.push_back(*c);
    if (p.way.launch == LaunchPath::graph && !b.cub_graph && b.cub) {
      DeviceBuffer out(device_, sizeof(float));
      b.cub_graph = device_.cub_sum(copy_ptrs_.data(), copies_, n_, sampling(), out.get<float>(),
                                    LaunchPath::graph);
    }
  }
  return b;
}

const Device::Ceiling* Baseline::ceiling_for(LaunchWay way) const {
  if (ceiling && ceiling->read.way == way) return &*ceiling;
  for (const auto& c : ceilings)
    if (c.read.way == way) return &c;
  return nullptr;
}

const Timing* Baseline::cub_for(LaunchPath launch) const {
  if (launch == LaunchPath::graph) return cub_graph ? &*cub_graph : nullptr;
  return cub ? &*cub : nullptr;
}

double percent_of_ceiling(const Timing& rung, const Device::Ceiling& ceiling) {
  if (!(rung.way == ceiling.read.way))
    throw std::invalid_argument(
        "a rung launched " + to_string(rung.way) + " compared with the ceiling launched " +
        to_string(ceiling.read.way) + ": that compares launch paths, not kernels");
  return 100.0 * ceiling.read.ms.median / rung.ms.median;
}

std::optional<double> percent_of_ceiling(const CaseResult& r, const Baseline& b) {
  if (!r.timing || r.timing->simulated) return std::nullopt;
  const Device::Ceiling* c = b.ceiling_for(r.timing->way);
  if (!c) return std::nullopt;
  const double kernel = percent_of_ceiling(*r.timing, *c);  // refuses another way first
  const FastestRead* f = b.fastest_for(r.timing->way);
  return f ? 100.0 * f->ms / r.timing->ms.median : kernel;
}

void Baseline::note_read(const CaseResult& r) {
  if (!r.timing || r.timing->simulated || !r.check.verified) return;
  const Device::Ceiling* c = ceiling_for(r.timing->way);
  if (!c || r.timing->ms.median >= ceiling_ms(r.timing->way)) return;
  std::string by = "lesson " + std::to_string(r.plan.lesson) + " " + std::string(r.plan.slug);
  if (!r.plan.variant.empty()) by += " / " + std::string(r.plan.variant);
  for (FastestRead& f : fastest)
    if (f.way == r.timing->way) {
      f = {r.timing->way, r.timing->ms.median, by};
      return;
    }
  fastest.push_back({r.timing->way, r.timing->ms.median, by});
}

const FastestRead* Baseline::fastest_for(LaunchWay way) const {
  for (const FastestRead& f : fastest)
    if (f.way == way) return &f;
  return nullptr;
}

double Baseline::ceiling_ms(LaunchWay way) const {
  if (const FastestRead* f = fastest_for(way)) return f->ms;
  const Device::Ceiling* c = ceiling_for(way);
  return c ? c->read.ms.median : 0.0;
}

std::optional<double> times_cub(const CaseResult& r, const Baseline& b) {
  if (!r.timing || r.timing->simulated) return std::nullopt;
  const Timing* cub = b.cub_for(r.timing->way.launch);
  if (!cub) return std::nullopt;
  return cub->ms.median / r.timing->ms.median;
}

void Session::note_reads(const std::vector<CaseResult>& results) {
  if (!baseline_) return;
  for (const CaseResult& r : results) baseline_->note_read(r);
}

bool launch_bound(const Timing& t, const std::optional<Summary>& device_ms) {
  return device_ms && !t.simulated && device_ms->median < 0.8 * t.ms.median;
}

}  // namespace rl
