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
    // The chunked variant: block b sums one contiguous run of the input, a whole number of Block
    // floats long (so that every run starts where a warp's loads line up), its threads Block
    // floats apart; the last runs may be short or empty.
    const std::uint64_t runs = (n + Block - 1) / Block;  // Block-float pieces of the input
    const std::uint64_t chunk = (runs + gridDim.x - 1) / gridDim.x * Block;
    const std::uint64_t first = std::uint64_t{blockIdx.x} * chunk;
    const std::uint64_t begin = first < n ? first : n;                // past n: an empty run
    const std::uint64_t end = n - begin < chunk ? n : begin + chunk;  // never past n
    for (std::uint64_t i = begin + tid; i < end; i += Block) sum += in[i];
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
