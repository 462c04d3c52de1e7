// Exercise 01: the naive tree's adders without a division. Do what the TODO(student) below asks;
// grade it with `bash lessons/grade.sh 01`, and when stuck ask
// `build-student/bin/01_interleaved_divergent --hint 1` (then 2, 3). The solution is
// ../interleaved_divergent.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 01: the naive shared-memory tree (Harris's "reduction #1"). Each block sums blockDim.x
// consecutive inputs into out[blockIdx.x]; plan.cu runs it again over those partials.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// Bitmask: the `bitmask` variant. Trace: NoTrace (timed) or RecordTrace (--trace), see traced.h.
template <bool Bitmask, class Trace = NoTrace>
__global__ void interleaved_divergent(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();  // one float per thread, sized by the launch
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;  // 64-bit: n may pass 2^32
  // threads past the end load the identity, so the tree needs no mask
  partial[tid] = i < n ? in[i] : 0.0f;
  // every load lands before any thread reads a neighbour's slot
  __syncthreads();

  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    // TODO(student): the `bitmask` variant's test. `adds` must be true for exactly the threads the
    //   lesson's own test picks, the multiples of 2 * stride (`tid % (2 * stride) == 0`, on the
    //   right of the `:`), but found without a division, a `%` or a loop: the bitmask variant
    //   measures what the division costs. Graded (`bash lessons/grade.sh 01`), both variants: the
    //   total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU)
    //   with 256-thread blocks, random floats within float rounding and integer data to the bit;
    //   then blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1, 1000 and 67 * block - 3.
    //   On the simulator the cases up to 2^16+1 run again with each block's threads in reverse and
    //   in shuffled order: a result that needs lane order fails. Then, on the simulator, the grade
    //   reads a trace of the bitmask variant (n = 2048, 256-thread blocks): the block's values must
    //   meet in a tree of log2(block) levels of additions (one more at most), not one after
    //   another.
    const bool adds = Bitmask ? false : tid % (2 * stride) == 0;
    if (adds) partial[tid] += partial[tid + stride];
    __syncthreads();  // this level's sums are written before the next level reads them
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
