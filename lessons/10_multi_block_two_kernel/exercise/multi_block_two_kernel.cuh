// Exercise 10: write the finishing kernel that sums the partials (and the host's version of it).
// The solution is ../multi_block_two_kernel.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 10: the multi-block reduction as two kernels with distinct jobs, and the variant in which
// the host finishes: what does the second step cost, and where should it run?
#include <cstdint>
#include <vector>

#include "common/block_dispatch.h"
#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "common/trace/recorder.h"
#include "lessons/07_multiple_elements_per_thread/grid_stride_sum.cuh"
#include "lessons/09_block_two_stage/block_sum.cuh"

RL_NAMESPACE_BEGIN

// Kernel 1: a persistent grid, each block leaving one partial (lessons 07 and 09).
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) block_partials(const float* in, float* partials, std::uint64_t n) {
  const float sum = block_sum<Block, Trace>(grid_stride_sum<Block, Trace>(in, n), 1);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    Trace::store(13, global_at(partials + blockIdx.x), register_of(0), sum);
  }
}

// Kernel 2: one block of the widest size sums the partials (a few thousand at most). It is tiny:
// what it costs is the launch itself, which this lesson measures.
inline constexpr unsigned finish_block = 1024;
template <class Trace = NoTrace>
__global__ void __launch_bounds__(finish_block) finish_partials(const float* partials, float* out, std::uint64_t count) {
  float sum = 0.0f;
  // TODO(student): thread t adds partials t, t + finish_block, t + 2 * finish_block, ... below `count`
  //   into `sum`, recording Trace::combine(0, register_of(threadIdx.x), global_at(partials + i), sum);
  //   then the block combines its threads' sums with lesson 09's block_sum<finish_block, Trace>(sum, 1).
  (void)partials, (void)count;
  if (threadIdx.x == 0) {
    out[0] = sum;
    Trace::store(13, global_at(out), register_of(0), sum);
  }
}

struct MultiBlockTwoKernel {
  static constexpr int lesson = 10;
  static constexpr const char* slug = "multi_block_two_kernel";
  static constexpr const char* title = "Partials kernel, then a finishing kernel";
  static constexpr const char* variant = "";
  template <unsigned Block, class Trace>
  static constexpr GridKernel kernel = block_partials<Block, Trace>;

  static std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& s) {
    return persistent_grid(n, block, 2, s) * sizeof(float);
  }
  // Step 1, shared by both variants: the partials kernel. Returns how many partials it wrote.
  template <class Trace>
  static unsigned launch_partials(const float* in, float* partials, std::uint64_t n, unsigned block,
                                  const DeviceShape& s, void* stream) {
    const unsigned grid = persistent_grid(n, block, 2, s);
    launch("block_partials", kernel_for_block<MultiBlockTwoKernel, Trace>(block), dim3(grid), dim3(block), 0, stream,
           in, partials, n);
    return grid;
  }
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& s,
                     void* stream) {
    auto* partials = static_cast<float*>(scratch);
    const unsigned grid = launch_partials<Trace>(in, partials, n, block, s, stream);
    launch("finish_partials", finish_partials<Trace>, dim3(1), dim3(finish_block), 0, stream,
           static_cast<const float*>(partials), out, std::uint64_t{grid});
  }
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& s) {
    const std::uint64_t grid = persistent_grid(n, block, 2, s);
    return summation_depth(block, ceil_div(n, grid * block)) + summation_depth(finish_block, ceil_div(grid, finish_block));
  }
};

// The variant: the host fetches the partials and adds them. One launch fewer, but a device-to-host
// copy and a synchronisation in its place, and the result then has to travel back.
struct MultiBlockHostFinish : MultiBlockTwoKernel {
  static constexpr const char* variant = "host_finish";
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& s,
                     void* stream) {
    auto* partials = static_cast<float*>(scratch);
    const unsigned grid = launch_partials<Trace>(in, partials, n, block, s, stream);
    std::vector<float> host(grid);  // a trace of this variant ends at the partials: the host's adds are not a kernel's
    copy_to_host(host.data(), partials, grid * sizeof(float), stream);
    float total = 0.0f;  // float, in order: the same arithmetic a device finish would do
    // TODO(student): add the partials in `host` into `total`, in order.
    copy_to_device(out, &total, sizeof(float), stream);
  }
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& s) {
    const std::uint64_t grid = persistent_grid(n, block, 2, s);
    return summation_depth(block, ceil_div(n, grid * block)) + grid;
  }
};

RL_NAMESPACE_END
