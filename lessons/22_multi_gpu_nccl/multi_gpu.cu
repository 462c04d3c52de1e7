// Lesson 22: a sum over several GPUs is a local reduction on each GPU (lesson 12's kernel,
// unchanged) plus one collective that adds the per-GPU partials: NCCL's all-reduce of a single
// float.
#include "lessons/22_multi_gpu_nccl/multi_gpu.h"

#include <nccl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "common/backends/gpu/check.h"
#include "common/backends/gpu/generate.h"
#include "common/backends/gpu/nccl_check.h"
#include "common/host/device.h"
#include "common/host/plan.h"
#include "common/kernel_source.h"
// The collective: the solution, or in a student build the exercise
// (common/cmake/ReduceLabLesson.cmake).
#include "lessons/22_multi_gpu_nccl/collective.cuh"

namespace rl {
namespace {

// Each GPU's local reduction is lesson 12's single pass, through lesson 12's own GPU plan.
const Plan& single_pass() {
  static const Plan plan = lesson_plans<12, Backend::gpu>().front();
  return plan;
}

// One GPU of the group, as this process drives it.
struct Gpu {
  int device = 0;
  unsigned rank = 0;
  Share share;
  DeviceShape shape;
  std::string name;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, local_done = nullptr, collective_done = nullptr;
  float* input = nullptr;
  void* scratch = nullptr;  // lesson 12's per-block partials
  // [0] this GPU's partial, [1] the group's total, [2] [3] a barrier's in and out
  float* sums = nullptr;
};

float elapsed_ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0.0f;
  RL_CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
  return ms;
}

// cudaMalloc, with running out of memory reported as the usage error it is (exit 2), not a crash.
template <class T>
T* allocate(std::uint64_t count, const Gpu& g, const char* what) {
  std::size_t free = 0, total = 0;
  RL_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  // never a zero-byte request
  const std::uint64_t bytes = std::max<std::uint64_t>(count, 1) * sizeof(T);
  void* p = nullptr;
  // Compare in elements first: count * sizeof(T) can overflow for an absurd N.
  if (count > free / sizeof(T) || cudaMalloc(&p, bytes) == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfDeviceMemory("GPU " + std::to_string(g.device) + " has too little free memory for " +
                            what + ": " + std::to_string(count / (1u << 20) * sizeof(T)) +
                            " MiB needed, " + std::to_string(free >> 20) + " MiB free");
  }
  RL_CUDA_CHECK(cudaGetLastError());  // any other allocation failure
  return static_cast<T*>(p);
}

void release_buffers(Gpu& g) {
  cudaFree(g.input);
  cudaFree(g.scratch);
  cudaFree(g.sums);
  g.input = nullptr;
  g.scratch = nullptr;
  g.sums = nullptr;
}

void open_stream_and_events(Gpu& g) {
  cudaDeviceProp props{};
  RL_CUDA_CHECK(cudaGetDeviceProperties(&props, g.device));
  g.name = props.name;
  g.shape.sm_count = static_cast<unsigned>(props.multiProcessorCount);
  g.shape.max_threads_per_sm = static_cast<unsigned>(props.maxThreadsPerMultiProcessor);
  g.shape.max_blocks_per_sm = static_cast<unsigned>(props.maxBlocksPerMultiProcessor);
  g.shape.registers_per_sm = static_cast<unsigned>(props.regsPerMultiprocessor);
  g.shape.shared_bytes_per_sm = props.sharedMemPerMultiprocessor;
  g.shape.reserved_shared_per_block = props.reservedSharedMemPerBlock;
  g.shape.l2_bytes = static_cast<std::size_t>(props.l2CacheSize);
  RL_CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
  RL_CUDA_CHECK(cudaEventCreate(&g.start));
  RL_CUDA_CHECK(cudaEventCreate(&g.local_done));
  RL_CUDA_CHECK(cudaEventCreate(&g.collective_done));
}

// NVLink multicast (NVLS) stays off unless the user asked for it: set before any communicator
// exists.
void keep_nvls_off() { setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0); }

}  // namespace

std::string_view collective_source() { return kernel_source; }

struct MultiGpuSum::Impl {
  const Plan* local = &single_pass();  // each GPU's reduction of its share
  unsigned ranks = 0;
  std::uint64_t n = 0;  // the whole input, over all ranks
  unsigned block = single_pass().preferred_block;
  std::vector<Gpu> gpus;  // the GPUs this process drives: all of them, or its own one

  ~Impl() {
    for (auto& g : gpus) {
      cudaSetDevice(g.device);
      if (g.stream) cudaStreamSynchronize(g.stream);
      release_buffers(g);
      if (g.comm) ncclCommDestroy(g.comm);
      cudaEventDestroy(g.start);
      cudaEventDestroy(g.local_done);
      cudaEventDestroy(g.collective_done);
      if (g.stream) cudaStreamDestroy(g.stream);
    }
  }

  // Step 1 on one GPU: reduce its share to one float, sums[0]. The launch returns at once.
  void launch_local(Gpu& g) {
    RL_CUDA_CHECK(cudaSetDevice(g.device));
    RL_CUDA_CHECK(cudaEventRecord(g.start, g.stream));
    local->reduce({g.input, g.sums, g.share.count, block, g.scratch, g.shape, g.stream});
    RL_CUDA_CHECK(cudaEventRecord(g.local_done, g.stream));
  }

  // Step 2: the all-reduce of sums[from] into sums[to] on every GPU, or with a `root` rank the
  // exercise's reduce into that rank's sums[to] only (collective.cuh).
  void launch_collective(unsigned from, unsigned to, int root = -1) {
    std::vector<CollectivePart> parts;
    for (auto& g : gpus) parts.push_back({g.sums + from, g.sums + to, g.comm, g.stream});
    if (root < 0)
      all_reduce_sum(parts);
    else
      reduce_to_root(parts, root);
  }

  void record_collective_done() {
    for (auto& g : gpus) {
      RL_CUDA_CHECK(cudaSetDevice(g.device));
      RL_CUDA_CHECK(cudaEventRecord(g.collective_done, g.stream));
    }
  }

  void wait_all() {
    for (auto& g : gpus) {
      RL_CUDA_CHECK(cudaSetDevice(g.device));
      RL_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    }
  }

  // THE IDEA: launch every GPU's local reduction first (they run side by side), then the
  // collective, then wait. Waiting for GPU 0 before launching GPU 1 would serialise them: no
  // speed-up at all.
  void sum_once(int root = -1) {
    for (auto& g : gpus) launch_local(g);
    launch_collective(0, 1, root);
    record_collective_done();
    wait_all();
  }

  // Every GPU idle and past the same point: a tiny all-reduce, waited for. Needed where the ranks
  // are processes, harmless where they are not; it keeps one GPU's lag out of the next sample.
  void barrier() {
    launch_collective(2, 3);
    wait_all();
  }
};

unsigned visible_gpus(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count <= 0) {
    if (why) *why = no_gpu_reason(e);
    cudaGetLastError();
    return 0;
  }
  return static_cast<unsigned>(count);
}

std::string nccl_version() {
  int code = 0;
  RL_NCCL_CHECK(ncclGetVersion(&code));  // major * 10000 + minor * 100 + patch since NCCL 2.9
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
         std::to_string(code % 100);
}

std::string new_group_id() {
  keep_nvls_off();
  ncclUniqueId id;
  RL_NCCL_CHECK(ncclGetUniqueId(&id));
  std::string hex;
  for (unsigned char c : id.internal) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", c);
    hex += two;
  }
  return hex;
}

MultiGpuSum::MultiGpuSum(unsigned gpus, const Plan* local) : impl_(std::make_unique<Impl>()) {
  keep_nvls_off();
  if (local) {
    if (local->backend != Backend::gpu)
      throw std::invalid_argument("MultiGpuSum: the local reduction must be a GPU plan");
    impl_->local = local;
  }
  impl_->ranks = gpus;
  impl_->gpus.resize(gpus);
  std::vector<int> devices(gpus);
  std::vector<ncclComm_t> comms(gpus);
  for (unsigned r = 0; r < gpus; ++r) {
    Gpu& g = impl_->gpus[r];
    g.device = static_cast<int>(r);
    g.rank = r;
    devices[r] = g.device;
    RL_CUDA_CHECK(cudaSetDevice(g.device));
    open_stream_and_events(g);
  }
  RL_NCCL_CHECK(ncclCommInitAll(comms.data(), static_cast<int>(gpus), devices.data()));
  for (unsigned r = 0; r < gpus; ++r) impl_->gpus[r].comm = comms[r];
}

MultiGpuSum::MultiGpuSum(unsigned rank, unsigned ranks, const std::string& group_id)
    : impl_(std::make_unique<Impl>()) {
  keep_nvls_off();
  ncclUniqueId id;
  if (group_id.size() != 2 * sizeof id.internal)
    throw std::runtime_error("the NCCL group id must be " + std::to_string(2 * sizeof id.internal) +
                             " hex digits");
  for (std::size_t i = 0; i < sizeof id.internal; ++i)
    id.internal[i] = static_cast<char>(std::stoi(group_id.substr(2 * i, 2), nullptr, 16));
  impl_->ranks = ranks;
  Gpu& g = impl_->gpus.emplace_back();
  g.device = static_cast<int>(rank);
  g.rank = rank;
  RL_CUDA_CHECK(cudaSetDevice(g.device));
  open_stream_and_events(g);
  // Blocks until all `ranks` processes have called it with the same id.
  RL_NCCL_CHECK(ncclCommInitRank(&g.comm, static_cast<int>(ranks), id, static_cast<int>(rank)));
}

MultiGpuSum::~MultiGpuSum() = default;

unsigned MultiGpuSum::ranks() const { return impl_->ranks; }

std::vector<std::string> MultiGpuSum::gpu_names() const {
  std::vector<std::string> names;
  for (const auto& g : impl_->gpus) names.push_back(g.name);
  return names;
}

void MultiGpuSum::prepare(std::uint64_t n, std::uint64_t seed, Distribution d, unsigned block) {
  impl_->block = block;
  impl_->n = n;
  const std::vector<Share> shares = split_evenly(n, impl_->ranks);
  for (auto& g : impl_->gpus) {
    RL_CUDA_CHECK(cudaSetDevice(g.device));
    RL_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    release_buffers(g);
    g.share = shares[g.rank];
    g.sums = allocate<float>(4, g, "four floats");
    g.scratch =
        allocate<float>(impl_->local->scratch_bytes(g.share.count, block, g.shape) / sizeof(float),
                        g, "the per-block partials");
    g.input = allocate<float>(g.share.count, g, "its share of the input");
    // The GPU makes its own share: elements first .. first + count - 1 of the global input.
    generate_on_device(g.input, g.share.count, g.share.first, seed, d, g.stream);
  }
  impl_->wait_all();
}

std::vector<float> MultiGpuSum::run(int root) {
  for (auto& g : impl_->gpus) {  // NaN in the total, so a collective that writes nothing shows
    RL_CUDA_CHECK(cudaSetDevice(g.device));
    RL_CUDA_CHECK(cudaMemsetAsync(g.sums + 1, 0xFF, sizeof(float), g.stream));
  }
  impl_->barrier();
  impl_->sum_once(root);
  std::vector<float> totals;
  for (auto& g : impl_->gpus) {
    float total = 0.0f;
    RL_CUDA_CHECK(cudaSetDevice(g.device));
    RL_CUDA_CHECK(cudaMemcpy(&total, g.sums + 1, sizeof total, cudaMemcpyDeviceToHost));
    totals.push_back(total);
  }
  return totals;
}

std::vector<float> MultiGpuSum::partials() const {
  std::vector<float> out;
  for (const auto& g : impl_->gpus) {
    float partial = 0.0f;
    RL_CUDA_CHECK(cudaSetDevice(g.device));
    RL_CUDA_CHECK(cudaMemcpy(&partial, g.sums, sizeof partial, cudaMemcpyDeviceToHost));
    out.push_back(partial);
  }
  return out;
}

Measurement MultiGpuSum::time(unsigned samples, unsigned warmup) {
  Impl& m = *impl_;
  for (unsigned i = 0; i < warmup; ++i) {
    m.barrier();
    m.sum_once();
  }
  std::vector<double> total, collective;
  std::vector<std::vector<double>> local(m.gpus.size());
  for (unsigned i = 0; i < samples; ++i) {
    m.barrier();
    m.sum_once();
    total.push_back(elapsed_ms(m.gpus[0].start, m.gpus[0].collective_done));
    for (std::size_t k = 0; k < m.gpus.size(); ++k)
      local[k].push_back(elapsed_ms(m.gpus[k].start, m.gpus[k].local_done));
  }
  // The collective alone: all GPUs idle (barrier), then only the all-reduce, timed on the first
  // GPU.
  for (unsigned i = 0; i < warmup + samples; ++i) {
    m.barrier();
    for (auto& g : m.gpus) {
      RL_CUDA_CHECK(cudaSetDevice(g.device));
      RL_CUDA_CHECK(cudaEventRecord(g.start, g.stream));
    }
    m.launch_collective(0, 1);
    m.record_collective_done();
    m.wait_all();
    if (i >= warmup) collective.push_back(elapsed_ms(m.gpus[0].start, m.gpus[0].collective_done));
  }
  Measurement out{summarize(total), summarize(collective), {}};
  for (std::size_t k = 0; k < m.gpus.size(); ++k)
    out.local.push_back({m.gpus[k].device, m.gpus[k].rank, m.gpus[k].share, summarize(local[k])});
  return out;
}

std::uint64_t multi_gpu_depth(std::uint64_t n, unsigned ranks, unsigned block,
                              const DeviceShape& shape) {
  std::uint64_t deepest = 0;
  for (const Share& s : split_evenly(n, ranks))
    deepest = std::max(deepest, single_pass().depth(s.count, block, shape));
  return deepest + ranks;
}

std::uint64_t MultiGpuSum::depth() const {
  // The longest chain inside any GPU's local reduction (shares differ by one element at most, and
  // the GPUs are alike), then up to one addition per further GPU: a ring all-reduce adds the
  // partials one after another.
  const Gpu& g = impl_->gpus.front();
  std::uint64_t deepest = 0;
  for (const Share& s : split_evenly(impl_->n, impl_->ranks))
    deepest = std::max(deepest, impl_->local->depth(s.count, impl_->block, g.shape));
  return deepest + impl_->ranks;
}

}  // namespace rl
