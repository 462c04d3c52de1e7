// Exercise 07: the chunked variant's share of the input, a grid sized to the GPU. Do what the
// TODO(student) below asks; grade it with `bash lessons/grade.sh 07`, and when stuck ask
// `build-student/bin/07_multiple_elements_per_thread --hint 1` (then 2, 3). The solution is
// ../multiple_elements_per_thread.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 07: a grid that fills the GPU once, each thread summing many elements before the tree
// (Harris's "reduction #7", algorithm cascading).
#include <cstdint>

#include "common/device/traced.h"
#include "common/device/tree_in_shared.cuh"

RL_NAMESPACE_BEGIN

// Chunked: the `chunked` variant (its own share of the input, below). Trace: NoTrace (timed) or
// RecordTrace (--trace), see traced.h.
template <unsigned Block, class Trace = NoTrace, bool Chunked = false>
__global__ void __launch_bounds__(Block)
    multiple_elements_per_thread(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  Float<Trace> sum = 0.0f;
  if constexpr (Chunked) {
    // TODO(student): the `chunked` variant's share of the input. plan.cu launches the same grid as
    //   for the lesson's own loop below (gridDim.x blocks, about as many as the GPU holds at once),
    //   but here each block takes one contiguous run of in[0, n), not a window of every sweep:
    //   every input in exactly one block's run, each run a whole number of Block floats long (so
    //   that every run starts where a warp's loads line up), the runs as even as that allows (the
    //   last ones may be short or empty), and inside a run the threads of a warp reading
    //   consecutive floats at every step. Gather into `sum`, in a register; inputs at or past n are
    //   not read; n may pass 2^32. Graded (`bash lessons/grade.sh 07`), both plans: the total for
    //   n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with
    //   256-thread blocks, random floats within float rounding and integer data to the bit; then
    //   blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1, 1000 and 67 * block - 3. On
    //   the simulator the cases up to 2^16+1 run again with each block's threads in reverse and in
    //   shuffled order. Then, on the simulator, the grade reads a trace of the chunked variant
    //   (n = 2048, 256-thread blocks): whole warps, no bank conflict and no __syncthreads after a
    //   level where 32 threads or fewer work.
    (void)in, (void)n;
  } else {
    // THE IDEA: the grid is sized from the SM count (plan.cu), not from n. Each thread walks the
    // input in grid-sized strides, adding in a register: the costly tree and its barriers run once
    // per block however large n is, and loads of consecutive threads still touch consecutive
    // addresses. 64-bit indices: n may pass 2^32.
    const std::uint64_t stride = std::uint64_t{2 * Block} * gridDim.x;
    for (std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * Block) + tid; i < n; i += stride) {
      sum += in[i];
      if (i + Block < n) sum += in[i + Block];  // lesson 04's second load, one block further on
    }
  }
  partial[tid] = sum;
  __syncthreads();
  tree_in_shared<Block, Trace>(partial, tid);  // lesson 06's tree, lesson 05's warp tail
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
