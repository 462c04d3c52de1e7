// Exercise 05: the last warp's levels, narrowing, with no block barrier and no race. Do what the
// TODO(student) below asks; grade it with `bash lessons/grade.sh 05`, and when stuck ask
// `build-student/bin/05_unroll_last_warp --hint 1` (then 2, 3). The solution is
// ../unroll_last_warp.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 05: unroll the last six levels, which a single warp does (Harris's "reduction #5"), the
// way that is correct on Volta and later: with __syncwarp between the reads and the writes.
#include <cstdint>

#include "common/device/add_while_loading.cuh"
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace, bool Narrowing = false>
__global__ void unroll_last_warp(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * (2 * blockDim.x);
  partial[tid] = add_while_loading<Trace>(in, n, first, blockDim.x);  // lesson 04
  __syncthreads();

  // THE IDEA: the block-wide loop stops at 64 values; below that only warp 0 works, and a warp
  // needs no block barrier (and no loop bookkeeping): six levels unrolled with warp-level syncs.
  for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (!Narrowing && tid < 32) {  // the narrowing variant's tail follows this one
    // Lanes are NOT in lock-step since Volta: each level reads a neighbour's slot into a register,
    // waits with __syncwarp until every lane has read, writes, and waits again until every lane has
    // written. Without those two waits a fast lane may read a slot a slow lane has not written yet.
    Float<Trace> sum = partial[tid];
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride /= 2) {
      // never past the block's slots (block 32!)
      if (tid + stride < blockDim.x) sum += partial[tid + stride];
      // all reads of this level before any write
      __syncwarp();
      partial[tid] = sum;
      // all writes before the next level reads
      __syncwarp();
    }
  }
  if constexpr (Narrowing) {
    // The narrowing variant (exercise 05): at each level only the lanes whose sums are still
    // needed work, and each wait names only the lanes it must.
    if (tid < 32) {
      // TODO(student): the narrowing variant's last six levels, by warp 0 (threads 0-31). The loop
      //   above leaves the block's sum spread over partial[0..64) (over partial[0..32) in a
      //   32-thread block); finish the tree so that partial[0] holds it, with no block-wide
      //   barrier. Unlike the tail above, at each level only the lanes whose sums are still needed
      //   work (32, then 16, 8, 4, 2, 1), and the warp waits only where a lane could otherwise read
      //   a slot before it is written or write one before it is read, each wait naming only the
      //   lanes it must. Since Volta the lanes of a warp are not in lock-step, so the result must
      //   not depend on the order in which they run. Never read a slot at or past blockDim.x.
      //   Graded (`bash lessons/grade.sh 05`), both variants: the total for n = 0, 1, 31, 32, 33,
      //   255, 256, 257, 1000, 2^16+1 and 2^20 (2^24+3 too on a GPU) with 256-thread blocks, random
      //   floats within float rounding and integer data to the bit; then blocks of 32, 64, 128, 512
      //   and 1024 threads at n = block + 1, 1000 and 67 * block - 3. On the simulator the cases up
      //   to 2^16+1 run again with each block's threads in reverse and in shuffled order, with the
      //   race detector on: a result that needs lane order, or a wait that misses a lane, fails.
      //   Then, on the simulator, the grade reads a trace of the narrowing variant (n = 2048,
      //   256-thread blocks): lesson 03's tree, whole warps and no bank conflict, no __syncthreads
      //   after a level where 32 threads or fewer work, and half as many adders at each of the last
      //   warp's levels as at the one before.
    }
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END
