#pragma once
// Lesson 13: a launch that does not wait in the queue. With programmatic dependent launch (sm_90), a
// kernel may be scheduled while the kernel before it in the stream is still running; it waits
// inside itself, in cudaGridDependencySynchronize(), for that kernel to complete and its memory to
// be visible, instead of waiting outside for its launch. What it saves is the gap between two
// kernels (lesson 10's timeline measured it), which matters where kernels are short.
#include <cstdint>

#include "common/device/block_sum.cuh"
#include "common/device/last_block_finish.cuh"
#include "common/device/traced.h"
#include "common/device/vectorized_sum.cuh"

RL_NAMESPACE_BEGIN

// The tickets of this lesson's single pass, as lesson 12's (each launch leaves it at zero).
__device__ unsigned int dependent_tickets = 0;

// Lesson 12's single pass, each call launched by plan.cu with programmatic_dependency: it may be
// running while the call before it in the stream has not ended.
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    dependent_single_pass(In<Trace> in, Out<Trace> out, std::uint64_t n, Out<Trace> partials) {
  // THE IDEA: wait here, inside, for the previous kernel in the stream to complete, memory
  // included: it may still be writing `out`, `partials` or the ticket this grid is about to use.
  cudaGridDependencySynchronize();
  // Then let the next call be scheduled at once: it waits in its own call above.
  cudaTriggerProgrammaticLaunchCompletion();
  const Float<Trace> sum = block_sum<Block, Trace>(vectorized_sum<Block, 4, Trace>(in, n));
  publish_and_finish<Block, Trace>(&dependent_tickets, sum, blockIdx.x, gridDim.x, partials, out,
                                   [](Float<Trace> v) { return block_sum<Block, Trace>(v); });
}

// The late_wait variant's tickets: its own, as lesson 12's variant has.
__device__ unsigned int late_wait_tickets = 0;

// The variant `late_wait`: dependent_single_pass with its wait as late as it may go.
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    dependent_single_pass_late_wait(In<Trace> in, Out<Trace> out, std::uint64_t n,
                                    Out<Trace> partials) {
  // the mistake: dependent_single_pass's order, the wait first, so nothing overlaps the call before
  cudaGridDependencySynchronize();
  cudaTriggerProgrammaticLaunchCompletion();
  const Float<Trace> sum = block_sum<Block, Trace>(vectorized_sum<Block, 4, Trace>(in, n));
  publish_and_finish<Block, Trace>(&late_wait_tickets, sum, blockIdx.x, gridDim.x, partials, out,
                                   [](Float<Trace> v) { return block_sum<Block, Trace>(v); });
}

// The same idea on lesson 10's two kernels: the partials kernel lets the finishing kernel be
// scheduled at once; plan.cu launches the finishing kernel with programmatic_dependency (or plainly,
// the contrast).
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    streaming_partials(In<Trace> in, Out<Trace> partials, std::uint64_t n) {
  // Where this is called decides only when the dependent kernel may start, never what it sees:
  // its cudaGridDependencySynchronize waits for this whole grid to complete, memory included.
  cudaTriggerProgrammaticLaunchCompletion();
  const Float<Trace> sum = block_sum<Block, Trace>(vectorized_sum<Block, 4, Trace>(in, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

inline constexpr unsigned finish_block = 1024;
template <class Trace = NoTrace>
__global__ void __launch_bounds__(finish_block)
    finish_partials(Out<Trace> partials, Out<Trace> out, std::uint64_t count) {
  // Resident and waiting before the partials exist; this returns once every block of the partials
  // kernel has ended and its stores are visible.
  cudaGridDependencySynchronize();
  Float<Trace> sum = 0.0f;
  for (std::uint64_t i = threadIdx.x; i < count; i += finish_block) sum += __ldcg(partials + i);
  sum = block_sum<finish_block, Trace>(sum);
  if (threadIdx.x == 0) out[0] = sum;
}

RL_NAMESPACE_END
