// Exercise 11: publish each block's partial, take a ticket, let the last block finish in a fixed order.
// The solution is ../single_pass.cuh; `lessons/grade.sh` grades this file.
#pragma once
// Lesson 11: one launch for any N, with a deterministic finish: the last block to arrive adds the
// partials of all blocks, in a fixed order, so the result is the same bits every run.
#include <cstdint>

#include "common/block_dispatch.h"
#include "common/cuda_compat.h"
#include "common/grid_stride_plan.h"
#include "common/trace/recorder.h"
#include "lessons/09_block_two_stage/block_sum.cuh"
#include "lessons/11_single_pass/vectorized_load.cuh"

RL_NAMESPACE_BEGIN

// How many blocks have finished this launch. Zero at load time; atomicInc wraps it back to zero
// when the last block arrives, so each launch finds it at zero without a memset (a second launch).
__device__ unsigned int blocks_finished = 0;

template <unsigned Block, unsigned LoadsInFlight = 4, QuadOrder Order = QuadOrder::interleaved, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) single_pass(const float* in, float* out, std::uint64_t n, float* partials) {
  const float sum = block_sum<Block, Trace>(thread_sum_vectorized<Block, LoadsInFlight, Order, Trace>(in, n), 1);

  // THE IDEA: no second launch. Each block publishes its partial, then takes a ticket; the block
  // that takes the last ticket knows every other partial is already visible, and finishes.
  // TODO(student): thread 0 publishes `sum` in partials[blockIdx.x], recording Trace::store(13,
  //   global_at(partials + blockIdx.x), register_of(0), sum), makes it visible with __threadfence() and
  //   takes a ticket with atomicInc(&blocks_finished, gridDim.x - 1). A __shared__ flag and one
  //   __syncthreads() tell the whole block whether its ticket was the last; if not, the block returns.
  float total = 0.0f;
  // TODO(student): the last block: thread t adds partials t, t + Block, ... (read with __ldcg), recording
  //   Trace::combine(14, register_of(threadIdx.x), global_at(partials + b), total); then the block
  //   combines the threads' totals in a fixed order: total = block_sum<Block, Trace>(total, 15).
  (void)sum, (void)partials;
  if (threadIdx.x == 0) {
    out[0] = total;
    Trace::store(27, global_at(out), register_of(0), total);
  }
}

// The contrast: finish with one atomicAdd per block. Blocks arrive in a different order each run,
// and float addition is not associative, so the last bits of the total vary from run to run.
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block) single_pass_atomic(const float* in, float* out, std::uint64_t n) {
  const float sum = block_sum<Block, Trace>(thread_sum_vectorized<Block, 4, QuadOrder::interleaved, Trace>(in, n), 1);
  if (threadIdx.x == 0) {
    // TODO(student): add `sum` into *out with one atomicAdd; `before` is the value it returns.
    const float before = 0.0f;
    Trace::atomic(13, global_at(out), register_of(0), before + sum);
  }
}

inline constexpr unsigned single_pass_items_per_thread = 16;  // below this many a block isn't worth launching

template <unsigned LoadsInFlight = 4, QuadOrder Order = QuadOrder::interleaved>
struct SinglePassTuned {
  static constexpr int lesson = 11;
  static constexpr const char* slug = "single_pass";
  static constexpr const char* title = "Single pass: vector loads, last block finishes";
  static constexpr const char* variant = "";
  static constexpr unsigned preferred_block = 1024;  // fewer, wider blocks: fewer partials to finish
  template <unsigned Block, class Trace>
  static constexpr auto kernel = single_pass<Block, LoadsInFlight, Order, Trace>;

  static unsigned grid(std::uint64_t n, unsigned block, const DeviceShape& s) {
    return persistent_grid(n, block, single_pass_items_per_thread, s);
  }
  static std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& s) {
    return grid(n, block, s) * sizeof(float);
  }
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& s,
                     void* stream) {
    launch(slug, kernel_for_block<SinglePassTuned, Trace>(block), dim3(grid(n, block, s)), dim3(block), 0, stream, in, out, n,
           static_cast<float*>(scratch));
  }
  // A thread's run of quads (each quad two levels), head and tail, two block sums and the finish's run.
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& s) {
    const std::uint64_t g = grid(n, block, s);
    return ceil_div(n, 4 * g * block) + 4 + 2 * summation_depth(block, 0) + ceil_div(g, block);
  }
};

// Four float4 loads in flight, interleaved over the grid, 1024 threads a block: the fastest of the
// shapes measured on the H100 (see README.md); the template stays so an exercise can try others.
using SinglePass = SinglePassTuned<4, QuadOrder::interleaved>;

struct SinglePassAtomic : SinglePass {
  static constexpr const char* variant = "atomic_finish";
  template <unsigned Block, class Trace>
  static constexpr auto kernel = single_pass_atomic<Block, Trace>;
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void*, const DeviceShape& s,
                     void* stream) {
    zero_async(out, sizeof(float), stream);  // the atomics add into it
    launch("single_pass_atomic", kernel_for_block<SinglePassAtomic, Trace>(block), dim3(grid(n, block, s)), dim3(block), 0,
           stream, in, out, n);
  }
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& s) {
    const std::uint64_t g = grid(n, block, s);
    return ceil_div(n, 4 * g * block) + 4 + summation_depth(block, 0) + g;
  }
};

RL_NAMESPACE_END
