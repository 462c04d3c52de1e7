// Exercise 02: lesson 02's tree without its bank conflicts. Do what the TODO(student) below asks;
// grade it with `bash lessons/grade.sh 02`, and when stuck ask
// `build-student/bin/02_interleaved_strided --hint 1` (then 2, 3). The solution is
// ../interleaved_strided.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 02: contiguous threads do the work (Harris's "reduction #2"); the addresses they touch
// are strided.
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

// Where the tree's slot k lives in shared memory. The lesson keeps slot k in word k. Padded (the
// `padded` variant) places the slots so that the strided accesses below no longer share banks,
// with the same pairs added by the same threads; plan.cu sizes shared memory from it.
template <bool Padded>
__host__ __device__ constexpr unsigned slot(unsigned k) {
  // TODO(student): the `padded` variant's placement, on the left of the `:` (the lesson's own, slot
  //   k in word k, stays on the right). The kernel below is lesson 02's, unchanged: the same pairs,
  //   added by the same threads; only the words they live in move. Place the slots so that no
  //   warp's access to shared memory hits two words of one bank (32 banks, word w in bank w % 32),
  //   at any level of the tree of any block size; plan.cu allocates one word past the highest slot
  //   used, so spare words cost shared memory only. Graded (`bash lessons/grade.sh 02`), both
  //   variants: the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3
  //   too on a GPU) with 256-thread blocks, random floats within float rounding and integer data to
  //   the bit; then blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1, 1000 and
  //   67 * block - 3. On the simulator the cases up to 2^16+1 run again with each block's threads
  //   in reverse and in shuffled order. Then, on the simulator, the grade reads a trace of the
  //   padded variant (n = 2048, 256-thread blocks): a tree, whole warps working where 32 or more
  //   threads work, and no bank conflict at any level.
  return Padded ? k : k;
}

// Padded: the `padded` variant. Trace: NoTrace (timed) or RecordTrace (--trace), see traced.h.
template <bool Padded, class Trace = NoTrace>
__global__ void interleaved_strided(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[slot<Padded>(tid)] = i < n ? in[i] : 0.0f;
  __syncthreads();

  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    // THE IDEA: threads 0, 1, 2, ... do the work, each on the pair at 2*stride*tid. Whole warps are
    // now either busy or idle, so no warp diverges (until fewer than 32 threads work).
    const unsigned index = 2 * stride * tid;
    // The new flaw: lane tid touches word 2*stride*tid, so a warp's 32 addresses fall into only
    // 32/(2*stride) of the 32 banks: 2-way at stride 1, 4-way at 2, 8-way at 4. From stride 8 on
    // fewer lanes pass `index < blockDim.x`: with 256 threads, 8-way at 8 and 16, then 4, 2, 1.
    if (index < blockDim.x) partial[slot<Padded>(index)] += partial[slot<Padded>(index + stride)];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[slot<Padded>(0)];
}

RL_NAMESPACE_END
