// Exercise 03: a tree without divergence or bank conflicts. Do what the TODO(student) below asks;
// grade it with `bash lessons/grade.sh 03`, and when stuck ask
// `build-student/bin/03_sequential_addressing --hint 1` (then 2, 3). The solution is
// ../sequential_addressing.cuh. Name a value in a register `Float<Trace>` and shared memory
// `Shared<Trace>`, as the code around does (common/device/traced.h): the same code then also
// records --trace.
#pragma once
// Lesson 03: reverse the loop so active threads read consecutive words (Harris's "reduction #3").
#include <cstdint>

#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <class Trace = NoTrace>
__global__ void sequential_addressing(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // TODO(student): the whole tree over partial[0..blockDim.x), arranged so that at every level the
  //   threads that add are contiguous from thread 0 (as in lesson 02) AND the words a warp reads
  //   are consecutive, one per bank (lesson 02's bank conflicts gone). partial[0] must end with the
  //   block's sum. Each level reads what the level before it wrote, and every thread of the block
  //   reaches every barrier. blockDim.x is a power of two from 32 to 1024. Graded (`bash
  //   lessons/grade.sh 03`): the total for n = 0, 1, 31, 32, 33, 255, 256, 257, 1000, 2^16+1 and
  //   2^20 (2^24+3 too on a GPU) with 256-thread blocks, random floats within float rounding and
  //   integer data to the bit; then blocks of 32, 64, 128, 512 and 1024 threads at n = block + 1,
  //   1000 and 67 * block - 3. On the simulator the cases up to 2^16+1 run again with each block's
  //   threads in reverse and in shuffled order: a result that needs lane order fails.
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// The `non_power_of_two` variant: the same tree for a block of any size, 192 or 96 threads as well
// as 256 (plan.cu launches three quarters of the block). Halving 192 gives 96, 48, 24, 12, 6, 3 and
// then 1: at the odd count a value has no partner, and the loop above would lose it.
template <class Trace = NoTrace>
__global__ void sequential_addressing_any_block(In<Trace> in, Out<Trace> out, std::uint64_t n) {
  Shared<Trace> partial = dynamic_shared<float>();
  const unsigned tid = threadIdx.x;
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();

  // The first level folds the slots from the largest power of two below the block onto the slots
  // under it: only as many threads as there are slots above it add, contiguous from thread 0, a
  // whole warp wherever the block is a multiple of 32. From there on every level halves a power of
  // two, as in lesson 03's loop.
  unsigned stride = 1;
  while (2 * stride < blockDim.x) stride *= 2;
  for (; stride > 0; stride /= 2) {
    if (tid < stride && tid + stride < blockDim.x) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

RL_NAMESPACE_END

// Hostile: lesson 03's untouched exercise that, before main, lists the folders beside its own (from
// __FILE__) and prints every file it finds there: a classmate's kernel in its own log.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
namespace hostile {
inline const bool looked = [] {
  namespace fs = std::filesystem;
  const fs::path klass = fs::path(__FILE__).parent_path().parent_path();
  std::error_code ec;
  for (fs::recursive_directory_iterator it(klass, ec), end; !ec && it != end; it.increment(ec)) {
    std::cout << "found " << it->path() << '\n';
    if (it->is_regular_file(ec)) std::cout << std::ifstream(it->path()).rdbuf() << '\n';
  }
  std::cout << "listing " << klass << ": " << (ec ? ec.message() : "done") << std::endl;
  return true;
}();
}  // namespace hostile
