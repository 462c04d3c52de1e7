#pragma once
// Lesson 22's reduction across GPUs, as the host sees it: a group of GPUs (ranks), each holding a
// share of the input; a sum is every GPU reducing its share (lesson 12's kernel), then one NCCL
// all-reduce of the per-GPU partials. The CUDA and NCCL calls are in multi_gpu.cu.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/host/plan.h"
#include "common/host/stats.h"
#include "common/input_value.h"
#include "lessons/22_multi_gpu_nccl/split.h"

namespace rl {

// GPUs this process can see; 0 when there is no GPU or no driver (`why` then says which).
unsigned visible_gpus(std::string* why = nullptr);

// "2.28.9": the NCCL library this program runs with.
std::string nccl_version();

// The collective file this build compiled: the solution, the exercise or a submission (--grade
// names it).
std::string_view collective_source();

// A new NCCL group id (ncclGetUniqueId), as hex text to hand to the processes that will join it.
std::string new_group_id();

struct LocalTiming {
  int device = 0;
  unsigned rank = 0;
  Share share;
  Summary ms;  // this GPU's local reduction alone, CUDA events on its own stream
};

struct Measurement {
  // first local GPU's events: start of its local reduction to end of the collective
  Summary total_ms;
  Summary collective_ms;           // the all-reduce alone, started with every GPU idle
  std::vector<LocalTiming> local;  // the GPUs this process drives
};

// depth() of a group of `ranks` GPUs of this shape reducing n inputs with lesson 12's single pass
// at `block` threads, without one (the trusted grader's tolerance).
std::uint64_t multi_gpu_depth(std::uint64_t n, unsigned ranks, unsigned block,
                              const DeviceShape& shape);

class MultiGpuSum {
 public:
  // One process drives GPUs 0 .. gpus-1 (ncclCommInitAll). `local`: each GPU's reduction of its
  // share, a GPU plan; lesson 12's single pass unless given (the tests give one that drops a
  // block). It must outlive the group.
  explicit MultiGpuSum(unsigned gpus, const Plan* local = nullptr);
  // This process is rank `rank` of `ranks` processes and drives GPU `rank` (ncclCommInitRank).
  MultiGpuSum(unsigned rank, unsigned ranks, const std::string& group_id);
  ~MultiGpuSum();
  MultiGpuSum(const MultiGpuSum&) = delete;
  MultiGpuSum& operator=(const MultiGpuSum&) = delete;

  unsigned ranks() const;                      // GPUs in the whole group
  std::vector<std::string> gpu_names() const;  // of the GPUs this process drives

  // Splits n over the group, then allocates and fills each local GPU's share on that GPU.
  // Throws OutOfDeviceMemory (a usage error) when a share does not fit.
  void prepare(std::uint64_t n, std::uint64_t seed, Distribution d, unsigned block);

  // One sum: the total as each local GPU holds it after the all-reduce (all equal). With a `root`
  // rank, the exercise's reduce to that rank instead: the other GPUs' totals stay as run() leaves
  // them before the sum, NaN.
  std::vector<float> run(int root = -1);
  // After run(): each local GPU's partial, its own share's sum as the local reduction left it.
  std::vector<float> partials() const;
  // Repeats run() `warmup` times untimed, then `samples` times timed; medians in the Summaries.
  Measurement time(unsigned samples, unsigned warmup);

  // The longest chain of float additions from one input to the total: sets the tolerance.
  std::uint64_t depth() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rl
