// The GPU backend of the harness: allocations, transfers through pinned staging, event timing over
// rotated input copies (so large sizes measure DRAM, not L2), the streaming ceiling and CUB.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/backends/gpu/check.h"
#include "common/backends/gpu/streaming_ceiling.cuh"
#include "common/host/device.h"

namespace rl {
namespace {

int attribute(cudaDeviceAttr a, int device) {
  int v = 0;
  RL_CUDA_CHECK(cudaDeviceGetAttribute(&v, a, device));
  return v;
}

class EventPair {
 public:
  EventPair() {
    RL_CUDA_CHECK(cudaEventCreate(&start));
    RL_CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  cudaEvent_t start{}, stop{};
};

class GpuDevice final : public Device {
 public:
  explicit GpuDevice(int device) : device_(device) {
    RL_CUDA_CHECK(cudaSetDevice(device_));
    RL_CUDA_CHECK(cudaGetDeviceProperties(&props_, device_));
    RL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    shape_.sm_count = static_cast<unsigned>(props_.multiProcessorCount);
    shape_.max_threads_per_sm = static_cast<unsigned>(props_.maxThreadsPerMultiProcessor);
    shape_.max_blocks_per_sm = static_cast<unsigned>(props_.maxBlocksPerMultiProcessor);
    shape_.registers_per_sm = static_cast<unsigned>(props_.regsPerMultiprocessor);
    shape_.shared_bytes_per_sm = props_.sharedMemPerMultiprocessor;
    shape_.reserved_shared_per_block = props_.reservedSharedMemPerBlock;
    shape_.l2_bytes = static_cast<std::size_t>(props_.l2CacheSize);
  }
  ~GpuDevice() override {
    if (staging_) cudaFreeHost(staging_);
    if (sink_) cudaFree(sink_);
    if (cub_temp_) cudaFree(cub_temp_);
    cudaStreamDestroy(stream_);
  }

  Backend backend() const override { return Backend::gpu; }
  std::string name() const override { return props_.name; }
  DeviceShape shape() const override { return shape_; }
  nlohmann::json describe() const override {
    const int mem_khz = attribute(cudaDevAttrMemoryClockRate, device_);
    const int bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device_);
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    return {
        {"name", props_.name},
        {"simulated", false},
        {"compute_capability", std::to_string(props_.major) + "." + std::to_string(props_.minor)},
        {"sm_count", props_.multiProcessorCount},
        {"sm_clock_mhz", attribute(cudaDevAttrClockRate, device_) / 1000},
        {"memory_clock_mhz", mem_khz / 1000},
        {"memory_bus_bits", bus_bits},
        // double data rate: two transfers per memory clock
        {"theoretical_gbps", 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9},
        {"l2_bytes", props_.l2CacheSize},
        {"global_memory_bytes", props_.totalGlobalMem},
        {"driver_version", driver},
        {"runtime_version", runtime}};
  }
  std::size_t free_bytes() const override {
    std::size_t free = 0, total = 0;
    RL_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
  }

  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw OutOfDeviceMemory("the GPU has too little free memory for " +
                              std::to_string(bytes >> 20) + " MiB more (" +
                              std::to_string(free_bytes() >> 20) + " MiB free)");
    }
    RL_CUDA_CHECK(e);
    return p;
  }
  void release(void* p) noexcept override { cudaFree(p); }

  // Pageable memory would be copied through the driver's own small staging area; a 64 MiB pinned
  // buffer of ours lets large uploads run at full PCIe speed.
  void upload(void* dst, const void* src, std::size_t bytes) override {
    ensure_staging();
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    for (std::size_t off = 0; off < bytes; off += staging_bytes) {
      const std::size_t chunk = std::min(staging_bytes, bytes - off);
      std::memcpy(staging_, s + off, chunk);
      RL_CUDA_CHECK(cudaMemcpyAsync(d + off, staging_, chunk, cudaMemcpyHostToDevice, stream_));
      RL_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the staging buffer is reused next round
    }
  }
  void download(void* dst, const void* src, std::size_t bytes) override {
    RL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_));
    RL_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void copy(void* dst, const void* src, std::size_t bytes) override {
    RL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_));
  }
  void poison(void* dst, std::size_t bytes) override {
    RL_CUDA_CHECK(cudaMemsetAsync(dst, 0xFF, bytes, stream_));
  }
  void synchronize() override { RL_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  void* stream() override { return stream_; }

  // Enough copies that cycling through them touches three times the L2 between two uses of one
  // copy.
  std::size_t rotation_copies(std::size_t bytes) const override {
    if (bytes == 0) return 1;
    return std::clamp<std::size_t>(3 * shape_.l2_bytes / bytes + 1, 1, 1u << 16);
  }

  Timing time(const std::function<void(std::size_t)>& body, std::size_t copies,
              const Sampling& sampling) override {
    EventPair ev;
    std::size_t next = 0;
    auto run = [&](unsigned calls) {
      for (unsigned c = 0; c < calls; ++c) body(next++ % copies);
    };
    run(std::max(1u, sampling.warmup));
    synchronize();
    // One call's time decides how many back-to-back calls make a sample long enough for events.
    RL_CUDA_CHECK(cudaEventRecord(ev.start, stream_));
    run(1);
    RL_CUDA_CHECK(cudaEventRecord(ev.stop, stream_));
    RL_CUDA_CHECK(cudaEventSynchronize(ev.stop));
    float one = 0.0f;
    RL_CUDA_CHECK(cudaEventElapsedTime(&one, ev.start, ev.stop));
    const auto calls = static_cast<unsigned>(
        std::clamp(sampling.min_sample_ms / std::max(one, 1e-4f), 1.0, 4096.0));
    std::vector<double> per_call;
    for (unsigned s = 0; s < std::max(1u, sampling.samples); ++s) {
      // A lead-in call, untimed, keeps the GPU busy while the host queues the start event and the
      // timed calls: the window opens when the lead-in ends, with the next call already waiting, so
      // it holds device time only and not the host's launch latency (several microseconds, which a
      // one-call sample of a 0.5 ms kernel would otherwise count, and count differently for CUB).
      run(1);
      RL_CUDA_CHECK(cudaEventRecord(ev.start, stream_));
      run(calls);
      RL_CUDA_CHECK(cudaEventRecord(ev.stop, stream_));
      RL_CUDA_CHECK(cudaEventSynchronize(ev.stop));
      float ms = 0.0f;
      RL_CUDA_CHECK(cudaEventElapsedTime(&ms, ev.start, ev.stop));
      per_call.push_back(static_cast<double>(ms) / calls);
    }
    return {summarize(std::move(per_call)), calls, false};
  }

  std::optional<Ceiling> ceiling(const float* const* copies, std::size_t n_copies, std::uint64_t n,
                                 const Sampling& sampling) override {
    // The ceiling is the best of two shapes, each a full GPU of resident blocks: 1024-thread blocks
    // read fastest at large sizes, 256-thread blocks at small ones (measured on the H100).
    Ceiling c;
    for (const unsigned block : stream_read_blocks) {
      const unsigned grid = shape_.sm_count * (shape_.max_threads_per_sm / block);
      ensure_sink(grid);
      const Timing t = time(
          [&](std::size_t k) {
            gpu::stream_read<<<grid, block, 0, stream_>>>(copies[k], n, sink_);
            check_launch("stream_read");
          },
          n_copies, sampling);
      if (c.read.ms.count == 0 || t.ms.median < c.read.ms.median) c.read = t, c.read_block = block;
    }
    const double bytes = static_cast<double>(n) * sizeof(float);
    c.read_gbps = c.read.ms.median > 0 ? bytes / (c.read.ms.median * 1e6) : 0.0;
    // The copy ceiling writes into a buffer of its own (never into an input, which later runs
    // read); where memory is too short for one, that figure is left out rather than the input
    // harmed.
    if (n > 0 && n * sizeof(float) < free_bytes() / 2) {
      float* dst = static_cast<float*>(allocate(n * sizeof(float)));
      const Timing t = time(
          [&](std::size_t k) {
            RL_CUDA_CHECK(cudaMemcpyAsync(dst, copies[k], n * sizeof(float),
                                          cudaMemcpyDeviceToDevice, stream_));
          },
          n_copies, sampling);
      release(dst);
      c.copy_gbps = 2.0 * bytes / (t.ms.median * 1e6);
    }
    return c;
  }

  std::optional<Timing> cub_sum(const float* const* copies, std::size_t n_copies, std::uint64_t n,
                                const Sampling& sampling, float* result) override {
    const auto items = static_cast<std::int64_t>(n);
    std::size_t temp_bytes = 0;
    RL_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, copies[0], result, items, stream_));
    if (temp_bytes > cub_temp_bytes_) {
      if (cub_temp_) RL_CUDA_CHECK(cudaFree(cub_temp_));
      cub_temp_ = allocate(temp_bytes);
      cub_temp_bytes_ = temp_bytes;
    }
    return time(
        [&](std::size_t k) {
          std::size_t bytes = cub_temp_bytes_;
          RL_CUDA_CHECK(
              cub::DeviceReduce::Sum(cub_temp_, bytes, copies[k], result, items, stream_));
        },
        n_copies, sampling);
  }

 private:
  static constexpr std::size_t staging_bytes = std::size_t{64} << 20;
  void ensure_staging() {
    if (!staging_) RL_CUDA_CHECK(cudaMallocHost(&staging_, staging_bytes));
  }
  void ensure_sink(unsigned floats) {
    if (floats > sink_floats_) {
      if (sink_) RL_CUDA_CHECK(cudaFree(sink_));
      sink_ = static_cast<float*>(allocate(floats * sizeof(float)));
      sink_floats_ = floats;
    }
  }

  int device_ = 0;
  cudaDeviceProp props_{};
  DeviceShape shape_{};
  cudaStream_t stream_{};
  void* staging_ = nullptr;
  float* sink_ = nullptr;
  unsigned sink_floats_ = 0;
  void* cub_temp_ = nullptr;
  std::size_t cub_temp_bytes_ = 0;
};

}  // namespace

std::unique_ptr<Device> make_gpu_device(std::string* why_not) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why_not) *why_not = no_gpu_reason(e);
    cudaGetLastError();
    return nullptr;
  }
  return std::make_unique<GpuDevice>(0);
}

}  // namespace rl
