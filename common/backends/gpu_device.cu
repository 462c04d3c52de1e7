// The GPU backend of the harness: allocations, transfers through pinned staging, event timing over
// rotated input copies (so large sizes measure DRAM, not L2), the streaming ceiling and CUB.
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/backends/gpu/check.h"
#include "common/backends/gpu/streaming_ceiling.cuh"
#include "common/graph.h"
#include "common/host/device.h"
#include "common/host/timeline_calls.h"  // split_into_calls
#if RL_HAVE_CUPTI
#include "common/backends/gpu/cupti_activity.h"
#endif

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
  void hold_stream(double ms) override {
    // A host function on the stream (run by the runtime's own thread): what comes after it on the
    // stream waits for it to return. It may call no CUDA function, and does not.
    auto* held = new double(ms);
    RL_CUDA_CHECK(cudaLaunchHostFunc(
        stream_,
        [](void* p) {
          const std::unique_ptr<double> for_ms(static_cast<double*>(p));
          std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(*for_ms));
        },
        held));
  }

  // Enough copies that cycling through them touches three times the L2 between two uses of one
  // copy.
  std::size_t rotation_copies(std::size_t bytes) const override {
    if (bytes == 0) return 1;
    return std::clamp<std::size_t>(3 * shape_.l2_bytes / bytes + 1, 1, 1u << 16);
  }

  Timing time(const std::function<void(std::size_t)>& body, std::size_t copies,
              const Sampling& sampling, LaunchPath launch) override {
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
    if (launch == LaunchPath::graph) {
      // A graph's replay costs the host a launch of its own and starts after the graph before it
      // has ended: a sample of at least 1 ms of calls leaves that a small share of each call.
      const auto graph_calls = static_cast<unsigned>(
          std::clamp(std::max(sampling.min_sample_ms, 1.0) / std::max(one, 1e-4f), 1.0, 4096.0));
      return time_graphs(run, graph_calls, copies, sampling, ev);
    }
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
    return {summarize(std::move(per_call)), calls, false, {LaunchPath::stream, false}};
  }

  std::optional<Summary> device_time(const std::function<void(std::size_t)>& body,
                                     std::size_t copies, unsigned calls, LaunchPath launch,
                                     bool alone) override {
#if RL_HAVE_CUPTI
    for (std::size_t k = 0; k < std::min<std::size_t>(copies, 3); ++k) body(k);  // warm-up
    synchronize();
    return alone ? calls_alone(body, copies, calls)
                 : calls_back_to_back(body, copies, calls, launch);
#else
    (void)body, (void)copies, (void)calls, (void)launch, (void)alone;
    return std::nullopt;
#endif
  }

  std::optional<Ceiling> ceiling(const float* const* copies, std::size_t n_copies, std::uint64_t n,
                                 const Sampling& sampling, LaunchWay way) override {
    // The ceiling is the fastest of four shapes: 256- and 1024-thread blocks (1024 read fastest at
    // large sizes, 256 at small ones on the H100), each with a full GPU of resident blocks or with
    // no more blocks than the input feeds at 16 floats a thread (fewer blocks start and end sooner).
    Ceiling c;
    const auto kernel = way.programmatic ? gpu::stream_read<true> : gpu::stream_read<false>;
    for (const unsigned block : stream_read_blocks) {
      const unsigned full = shape_.sm_count * (shape_.max_threads_per_sm / block);
      const auto fed = static_cast<unsigned>(
          std::clamp<std::uint64_t>((n + 16 * block - 1) / (16 * block), 1, full));
      std::vector<unsigned> grids{full};
      if (fed != full) grids.push_back(fed);
      for (const unsigned grid : grids) {
        ensure_sink(grid);
        const auto read = [&](std::size_t k) {
          launch_ceiling(kernel, grid, block, way.programmatic, copies[k], n);
        };
        Timing t = time(read, n_copies, sampling, way.launch);
        t.way = way;
        if (c.read.ms.count == 0 || t.ms.median < c.read.ms.median)
          c.read = t, c.read_block = block, c.read_grid = grid;
      }
    }
    {
      ensure_sink(c.read_grid);
      const unsigned grid = c.read_grid, block = c.read_block;
      c.device_ms = device_time(
          [&](std::size_t k) {
            launch_ceiling(kernel, grid, block, way.programmatic, copies[k], n);
          },
          n_copies, device_time_calls, way.launch, false);
    }
    const double bytes = static_cast<double>(n) * sizeof(float);
    c.read_gbps = c.read.ms.median > 0 ? bytes / (c.read.ms.median * 1e6) : 0.0;
    // The copy ceiling writes into a buffer of its own (never into an input, which later runs
    // read); where memory is too short for one, that figure is left out rather than the input
    // harmed. Only on the plain stream: it is a figure of the memory, not of a launch way.
    if (way == LaunchWay{} && n > 0 && n * sizeof(float) < free_bytes() / 2) {
      float* dst = static_cast<float*>(allocate(n * sizeof(float)));
      const Timing t = time(
          [&](std::size_t k) {
            RL_CUDA_CHECK(cudaMemcpyAsync(dst, copies[k], n * sizeof(float),
                                          cudaMemcpyDeviceToDevice, stream_));
          },
          n_copies, sampling, LaunchPath::stream);
      release(dst);
      c.copy_gbps = 2.0 * bytes / (t.ms.median * 1e6);
    }
    return c;
  }

  std::optional<Timing> cub_sum(const float* const* copies, std::size_t n_copies, std::uint64_t n,
                                const Sampling& sampling, float* result,
                                LaunchPath launch) override {
    ensure_cub_temp(copies[0], n, result);
    Timing t =
        time([&](std::size_t k) { cub_call(copies[k], n, result); }, n_copies, sampling, launch);
    t.way = {launch, false};
    return t;
  }

  std::optional<Summary> cub_device_time(const float* const* copies, std::size_t n_copies,
                                         std::uint64_t n, float* result) override {
    ensure_cub_temp(copies[0], n, result);
    return device_time([&](std::size_t k) { cub_call(copies[k], n, result); }, n_copies,
                       device_time_calls, LaunchPath::stream, false);
  }

 private:
  static constexpr std::size_t staging_bytes = std::size_t{64} << 20;

  // enqueue()'s launches on the stream, recorded into a graph (common/graph.h); a recording that
  // throws is abandoned, so the stream never stays capturing.
  LaunchGraph record(const std::function<void()>& enqueue) {
    begin_recording(stream_);
    try {
      enqueue();
    } catch (...) {
      abandon_recording(stream_);
      throw;
    }
    return end_recording(stream_);
  }

  // LaunchPath::graph: a sample's `calls` calls recorded into one graph, then the graph replayed.
  // Graphs are recorded over successive input copies, as many as rotate through the copies (at
  // most 32), and replayed in turn, so that most sizes still read DRAM.
  template <class Run>
  Timing time_graphs(Run& run, unsigned calls, std::size_t copies, const Sampling& sampling,
                     EventPair& ev) {
    const std::size_t count = std::clamp<std::size_t>((copies + calls - 1) / calls, 1, 32);
    std::vector<LaunchGraph> graphs;
    for (std::size_t g = 0; g < count; ++g) graphs.push_back(record([&] { run(calls); }));
    for (const LaunchGraph& g : graphs) replay(g, stream_);  // warm: a first replay sets it up
    synchronize();
    std::size_t turn = 0;
    const auto replay_next = [&] { replay(graphs[turn++ % count], stream_); };
    std::vector<double> per_call;
    for (unsigned s = 0; s < std::max(1u, sampling.samples); ++s) {
      replay_next();  // the lead-in, as on the stream
      RL_CUDA_CHECK(cudaEventRecord(ev.start, stream_));
      replay_next();
      RL_CUDA_CHECK(cudaEventRecord(ev.stop, stream_));
      RL_CUDA_CHECK(cudaEventSynchronize(ev.stop));
      float ms = 0.0f;
      RL_CUDA_CHECK(cudaEventElapsedTime(&ms, ev.start, ev.stop));
      per_call.push_back(static_cast<double>(ms) / calls);
    }
    return {summarize(std::move(per_call)), calls, false, {LaunchPath::graph, false}};
  }

#if RL_HAVE_CUPTI
  // The time at least one of `kernels` ran: the gaps between them (the queue's, the host's) left
  // out, and kernels that overlap (the dependent launch) counted once.
  static std::uint64_t busy_ns(const std::vector<DeviceRecord>& records) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    for (const DeviceRecord& k : records)
      if (k.kind == DeviceRecord::Kind::kernel && k.end > k.start)
        spans.emplace_back(k.start, k.end);
    std::sort(spans.begin(), spans.end());
    std::uint64_t busy = 0, covered = 0;  // `covered`: the latest end counted so far
    for (const auto& [start, end] : spans) {
      if (end <= covered) continue;
      busy += end - std::max(start, covered);
      covered = end;
    }
    return busy;
  }

  // Five batches of `calls` calls back to back, launched as timed (on the stream, or recorded into
  // one graph and replayed): each batch's busy time over its calls.
  std::optional<Summary> calls_back_to_back(const std::function<void(std::size_t)>& body,
                                            std::size_t copies, unsigned calls, LaunchPath launch) {
    std::size_t next = 3;
    LaunchGraph graph;
    if (launch == LaunchPath::graph) {
      graph = record([&] {
        for (unsigned c = 0; c < calls; ++c) body(next++ % copies);
      });
      replay(graph, stream_);  // warm
      synchronize();
    }
    cupti::start({CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL});
    std::vector<double> per_call;
    for (int batch = 0; batch < 5; ++batch) {
      if (graph)
        replay(graph, stream_);
      else
        for (unsigned c = 0; c < calls; ++c) body(next++ % copies);
      synchronize();
      const std::uint64_t busy = busy_ns(cupti::take().device);
      if (busy > 0) per_call.push_back(static_cast<double>(busy) * 1e-6 / calls);
    }
    cupti::stop();
    if (per_call.empty()) return std::nullopt;
    return summarize(std::move(per_call));
  }

  // `calls` calls one at a time, each ended by a synchronize: each one's busy time.
  std::optional<Summary> calls_alone(const std::function<void(std::size_t)>& body,
                                     std::size_t copies, unsigned calls) {
    cupti::start({CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL});
    std::vector<CallWindow> windows;
    for (unsigned c = 0; c < calls; ++c) {
      const std::uint64_t begin = cupti::now();
      body((3 + c) % copies);
      synchronize();  // one call at a time: its kernels overlap no other call's
      windows.push_back({begin, cupti::now()});
    }
    cupti::Records records = cupti::take();
    cupti::stop();
    std::vector<double> per_call;
    for (const CallRecords& call :
         split_into_calls(std::move(records.api), std::move(records.device), windows))
      if (const std::uint64_t busy = busy_ns(call.device)) per_call.push_back(busy * 1e-6);
    if (per_call.size() < calls / 2 + 1) return std::nullopt;  // CUPTI saw too few of the calls
    return summarize(std::move(per_call));
  }
#endif

  // The ceiling kernel, on the stream or with the programmatic-dependency attribute.
  void launch_ceiling(void (*kernel)(const float*, std::uint64_t, float*), unsigned grid,
                      unsigned block, bool programmatic, const float* in, std::uint64_t n) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(grid);
    config.blockDim = dim3(block);
    config.stream = stream_;
    config.attrs = programmatic ? &attribute : nullptr;
    config.numAttrs = programmatic ? 1 : 0;
    const std::string what = "stream_read<<<" + std::to_string(grid) + ", " +
                             std::to_string(block) + ">>>" + (programmatic ? " (PDL)" : "");
    check_cuda(cudaLaunchKernelEx(&config, kernel, in, n, sink_), what.c_str());
  }

  void ensure_cub_temp(const float* in, std::uint64_t n, float* result) {
    std::size_t temp_bytes = 0;
    RL_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, result,
                                         static_cast<std::int64_t>(n), stream_));
    if (temp_bytes > cub_temp_bytes_) {
      if (cub_temp_) RL_CUDA_CHECK(cudaFree(cub_temp_));
      cub_temp_ = allocate(temp_bytes);
      cub_temp_bytes_ = temp_bytes;
    }
  }
  void cub_call(const float* in, std::uint64_t n, float* result) {
    std::size_t bytes = cub_temp_bytes_;
    RL_CUDA_CHECK(cub::DeviceReduce::Sum(cub_temp_, bytes, in, result, static_cast<std::int64_t>(n),
                                         stream_));
  }
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
