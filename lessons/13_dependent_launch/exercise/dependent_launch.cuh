// Exercise 13: a dependent launch that waits as late as it may. Do what the TODO(student) lines
// below ask; grade it with `bash lessons/grade.sh 13`, and when stuck ask
// `build-student/bin/13_dependent_launch --hint 1` (then 2, 3). The solution is
// ../dependent_launch.cuh.
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

// TODO(student) (with the kernel below): the variant's tickets, zero when the program loads, not
//   dependent_single_pass's (each kernel has its own); publish_and_finish leaves them at zero.

// The variant `late_wait`: dependent_single_pass with its wait as late as it may go.
template <unsigned Block, class Trace = NoTrace>
__global__ void __launch_bounds__(Block)
    dependent_single_pass_late_wait(In<Trace> in, Out<Trace> out, std::uint64_t n,
                                    Out<Trace> partials) {
  // TODO(student): dependent_single_pass's work (the block's sum, then publish_and_finish with the
  //   variant's tickets), launched the same way, but waiting for the call before it as late as is
  //   safe: whatever needs nothing that call writes may run before the wait, while that call is
  //   still finishing, and nothing that call writes or reads may be touched before it. Let the
  //   next call get going as early as ever. Graded (`bash lessons/grade.sh 13`): every plan's
  //   totals for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 and more block sizes,
  //   in every thread order, under the race detector; then every plan launched with the attribute
  //   twice back to back (n = 2^16+1, then its first 2^15+3, sharing the partials and the
  //   tickets), the second's first block run up to its wait before the first call runs at all:
  //   both totals right, and (your variant's idea) that block must have reached its block sum's
  //   __syncthreads before it waited.
  (void)in, (void)out, (void)n, (void)partials;
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
  // TODO(student): plan.cu launches this kernel with programmatic_dependency (`two_kernel_pdl`): it
  //   may start while streaming_partials is still writing `partials`. Read them only once every
  //   block of that kernel has written its own. Graded (`bash lessons/grade.sh 13`), every plan on
  //   the totals for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 and more block
  //   sizes; the simulator runs a dependent grid as early as CUDA allows (its first block up to the
  //   point where it waits, before the grid it depends on has run at all), so a read that comes too
  //   early reads the poisoned partials, and its race detector names the read and the write.
  Float<Trace> sum = 0.0f;
  for (std::uint64_t i = threadIdx.x; i < count; i += finish_block) sum += __ldcg(partials + i);
  sum = block_sum<finish_block, Trace>(sum);
  if (threadIdx.x == 0) out[0] = sum;
}

RL_NAMESPACE_END
