// The simulator backend: "device" memory is host memory, kernels run on the CPU SIMT simulator, and
// times are wall-clock times of that simulation, flagged as such so no one reads them as GB/s.
#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

#include <nlohmann/json.hpp>

#include "common/host/cli.h"  // UsageError
#include "common/host/device.h"
#include "common/sim/kernel_launch.h"

namespace rl {
namespace {

class SimDevice final : public Device {
 public:
  Backend backend() const override { return Backend::sim; }
  std::string name() const override { return "CPU SIMT simulator"; }
  DeviceShape shape() const override { return {}; }
  nlohmann::json describe() const override {
    const auto s = shape();
    return {{"name", name()},
            {"simulated", true},
            {"sm_count", s.sm_count},
            {"modelled_on", "NVIDIA H100 (132 SMs)"}};
  }
  std::size_t free_bytes() const override { return host_free_bytes(); }

  void* allocate(std::size_t bytes) override {
    // 256-byte alignment, as cudaMalloc gives, so vector loads behave the same on both backends.
    void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!p)
      throw OutOfDeviceMemory("the simulator could not allocate " + std::to_string(bytes) +
                              " bytes of host memory");
    sim::name_memory(p, bytes, "");  // a name given to freed memory here before is forgotten
    return p;
  }
  void release(void* p) noexcept override { std::free(p); }
  // Copies are in stream order: a grid launched with launch_ex that has not run yet runs first.
  void upload(void* dst, const void* src, std::size_t bytes) override {
    sim::synchronize();
    std::memcpy(dst, src, bytes);
  }
  void download(void* dst, const void* src, std::size_t bytes) override {
    sim::synchronize();
    std::memcpy(dst, src, bytes);
  }
  void copy(void* dst, const void* src, std::size_t bytes) override {
    sim::synchronize();
    std::memcpy(dst, src, bytes);
  }
  void poison(void* dst, std::size_t bytes) override {
    sim::synchronize();
    std::memset(dst, 0xFF, bytes);
  }
  void synchronize() override { sim::synchronize(); }
  void* stream() override { return nullptr; }
  void hold_stream(double) override {
    throw UsageError("the simulator runs each launch as it is made: it has no stream to hold");
  }
  std::size_t rotation_copies(std::size_t) const override { return 1; }

  // The simulator has no graphs to replay: a graph-launched plan's calls run one by one, and its
  // times say as little of a GPU as every simulated time.
  Timing time(const std::function<void(std::size_t)>& body, std::size_t, const Sampling& sampling,
              LaunchPath launch) override {
    std::vector<double> ms;
    for (unsigned s = 0; s < std::max(1u, sampling.samples); ++s) {
      const auto t0 = std::chrono::steady_clock::now();
      body(0);
      sim::synchronize();  // the grids the body launched with launch_ex are part of its time
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return {summarize(std::move(ms)), 1, true, {launch, false}};
  }
  std::optional<Summary> device_time(const std::function<void(std::size_t)>&, std::size_t, unsigned,
                                     LaunchPath, bool) override {
    return std::nullopt;
  }
  std::optional<Ceiling> ceiling(const float* const*, std::size_t, std::uint64_t, const Sampling&,
                                 LaunchWay) override {
    return std::nullopt;
  }
  std::optional<Timing> cub_sum(const float* const*, std::size_t, std::uint64_t, const Sampling&,
                                float*, LaunchPath) override {
    return std::nullopt;
  }
  std::optional<Summary> cub_device_time(const float* const*, std::size_t, std::uint64_t,
                                         float*) override {
    return std::nullopt;
  }
};

}  // namespace

std::unique_ptr<Device> make_sim_device() { return std::make_unique<SimDevice>(); }

}  // namespace rl
