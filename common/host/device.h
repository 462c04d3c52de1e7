#pragma once
// A backend as the harness sees it: where buffers live, how a piece of work is timed, and what the
// hardware can stream. The GPU implementation lives in common/gpu, the simulator's in common/host.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

// describe() returns one; its callers and definitions include json.hpp
#include <nlohmann/json_fwd.hpp>

#include "common/host/plan.h"
#include "common/host/stats.h"

namespace rl {

// Raised when a request cannot fit in the backend's memory: a usage error, answered with exit 2.
struct OutOfDeviceMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Threads per block of the streaming-read ceiling kernel: both are timed, the faster counts.
inline constexpr unsigned stream_read_blocks[] = {256, 1024};

// Calls a batch whose device time is measured (Device::device_time).
inline constexpr unsigned device_time_calls = 30;

struct Sampling {
  unsigned samples = 20;       // timed samples; the median is reported
  double min_sample_ms = 0.2;  // a sample repeats the work back to back until it lasts this long
  unsigned warmup = 3;
};

struct Timing {
  Summary ms;  // per call, over the samples
  unsigned calls_per_sample = 1;
  bool simulated = false;  // wall-clock time of the CPU simulator: says nothing of a GPU
  LaunchWay way;           // how the timed calls were launched
};

class Device {
 public:
  virtual ~Device() = default;
  virtual Backend backend() const = 0;
  virtual std::string name() const = 0;
  virtual DeviceShape shape() const = 0;
  virtual nlohmann::json describe() const = 0;  // name, SMs, clocks, memory: for the results record
  virtual std::size_t free_bytes() const = 0;

  virtual void* allocate(std::size_t bytes) = 0;  // throws OutOfDeviceMemory
  virtual void release(void* p) noexcept = 0;
  virtual void upload(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void download(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void poison(void* dst, std::size_t bytes) = 0;  // NaN bytes, so unwritten output shows
  virtual void synchronize() = 0;                         // waits, and surfaces asynchronous errors
  virtual void* stream() = 0;
  // Holds the stream for `ms` milliseconds: a host function queued on it sleeps that long, and the
  // stream's later work starts only once it returns; the call itself returns at once. What lesson
  // 16's grade measures a call against (a call that waits for the GPU waits that long). A
  // UsageError on the simulator, which runs each launch as it is made.
  virtual void hold_stream(double ms) = 0;

  // How many copies of an input of `bytes` to rotate through so that no timed call finds its input
  // in cache (1 on the simulator, which has no cache to speak of).
  virtual std::size_t rotation_copies(std::size_t bytes) const = 0;
  // Times body(copy) with copy cycling over [0, copies), per the plan, launched as `launch` says
  // (LaunchPath::graph: a sample's calls recorded into one graph, replayed; body must then enqueue
  // work only, with no host synchronization).
  virtual Timing time(const std::function<void(std::size_t copy)>& body, std::size_t copies,
                      const Sampling& sampling, LaunchPath launch = LaunchPath::stream) = 0;
  // Device time, on the GPU's own clock (CUPTI's kernel activity records), in ms a call: the time
  // at least one of the calls' kernels ran, the gaps between them (the queue's, the host's) left
  // out. By default over batches of `calls` calls back to back, launched as `launch` says (as the
  // time a call is taken), so it is never much more than that time (up to 7.4% more measured on the
  // H100 for the many-block tree kernels of lessons 01-06 at 2^27 and above, under CUPTI's tracing),
  // and well under it where the GPU waited for the host. (On a stream with the dependent launch, a
  // kernel that starts early counts as running while it waits for the one before.) With `alone`, each call made by itself (the GPU
  // idle before and after): what one call costs the GPU. Empty on the simulator and where this build
  // has no CUPTI.
  virtual std::optional<Summary> device_time(const std::function<void(std::size_t copy)>& body,
                                             std::size_t copies, unsigned calls,
                                             LaunchPath launch = LaunchPath::stream,
                                             bool alone = false) = 0;
  // The streaming ceiling: a read-only kernel over `n` floats, timed like a lesson and launched the
  // given way (with programmatic dependent launch its copy that waits as lesson 13's kernels do),
  // the fastest of several grid shapes; for the plain stream way also a device-to-device copy.
  // Empty on the simulator.
  struct Ceiling {
    double read_gbps = 0.0;
    double copy_gbps = 0.0;   // counting bytes read plus bytes written; 0 where not measured
    Timing read;              // read.way: how it was launched
    unsigned read_block = 0;  // the fastest shape: threads a block
    unsigned read_grid = 0;   // and blocks
    std::optional<Summary> device_ms;  // its device time (device_time), where measured
  };
  virtual std::optional<Ceiling> ceiling(const float* const* copies, std::size_t n_copies,
                                         std::uint64_t n, const Sampling& sampling,
                                         LaunchWay way = {}) = 0;
  // CUB's DeviceReduce::Sum on the same data, the reference every rung is compared with, launched
  // on the stream or recorded into a graph. Empty on the simulator.
  virtual std::optional<Timing> cub_sum(const float* const* copies, std::size_t n_copies,
                                        std::uint64_t n, const Sampling& plan, float* result,
                                        LaunchPath launch = LaunchPath::stream) = 0;
  // CUB's device time per call (device_time), where measured.
  virtual std::optional<Summary> cub_device_time(const float* const* copies, std::size_t n_copies,
                                                 std::uint64_t n, float* result) = 0;
};

// RAII ownership of one device allocation.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(Device& d, std::size_t bytes)
      : device_(&d), ptr_(bytes ? d.allocate(bytes) : nullptr), bytes_(bytes) {}
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    DeviceBuffer(std::move(o)).swap(*this);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (device_ && ptr_) device_->release(ptr_);
  }
  template <class T = void>
  T* get() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void swap(DeviceBuffer& o) noexcept {
    std::swap(device_, o.device_);
    std::swap(ptr_, o.ptr_);
    std::swap(bytes_, o.bytes_);
  }
  Device* device_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// This machine's available memory, in bytes (0 when it cannot be read).
std::size_t host_free_bytes();

// The GPU backend, or nullptr when this build has none or no GPU is visible (with the reason).
std::unique_ptr<Device> make_gpu_device(std::string* why_not);
std::unique_ptr<Device> make_sim_device();

}  // namespace rl
