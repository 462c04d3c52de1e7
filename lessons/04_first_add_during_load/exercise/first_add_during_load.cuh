// Exercise 04: the tree's first level, done while loading, from the grid's two halves. Do what the
// TODO(student) below asks; grade it with `bash lessons/grade.sh 04`, and when stuck ask
// `build-student/bin/04_first_add_during_load --hint 1` (then 2, 3). The solution is
// ../first_add_during_load.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 04: add two inputs while loading (Harris's "reduction #4").
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// Halves: the `halves` variant (the second input from the grid's other half, below). Trace: NoTrace
// (timed) or RecordTrace (--trace), see traced.h.
template <class Trace = NoTrace, bool Halves = false>
__global__ void first_add_during_load(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  if constexpr (Halves) {
    // TODO(student): the halves variant's two loads. plan.cu launches the same grid as lesson 04,
    //   one block per 2 * blockDim.x inputs, but here the grid's threads, taken in order, first
    //   cover one half of the input with one load each, and then the other half with their second
    //   load. Put the sum of the thread's two inputs into `sum`, so that every input is counted
    //   exactly once and each of a warp's loads reads 32 consecutive floats (coalesced). An input
    //   at or past n counts 0 and is not read. Indexes are 64-bit: n may pass 2^32. Graded (`bash
    //   lessons/grade.sh 04`), both variants: the total for n = 0, 1, 31, 32, 33, 255, 256, 257,
    //   1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within
    //   float rounding and integer data to the bit; then blocks of 32, 64, 128, 512 and 1024
    //   threads at n = block + 1, 1000 and 67 * block - 3. On the simulator the cases up to 2^16+1
    //   run again with each block's threads in reverse and in shuffled order: a result that needs
    //   lane order fails. Then, on the simulator, the grade reads a trace of the halves variant (n
    //   = 2048, 256-thread blocks): lesson 03's tree, whole warps and no bank conflict.
    Float<Trace> sum = 0.0f;  // this thread's two inputs, added
    partial[tid] = sum;
  } else {
    // THE IDEA: each block covers 2 * blockDim.x inputs and each thread adds its two while
    // loading. In lesson 03 half the threads went idle at the very first level; now that level is
    // done in registers on the way in, and the grid needs half as many blocks.
    const std::uint64_t i = std::uint64_t{blockIdx.x} * (2 * blockDim.x) + tid;
    Float<Trace> sum = i < n ? in[i] : 0.0f;
    // the second load is one block further: coalesced too
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
    partial[tid] = sum;
  }
  __syncthreads();

  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {  // lesson 03's tree
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
