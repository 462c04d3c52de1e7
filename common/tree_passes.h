#pragma once
// The launch plan of lessons 01-06: a block-tree kernel turns each `items_per_block` inputs into one
// partial sum; the same kernel runs again over the partials until a single value is left. The
// lessons differ only in the kernel, so this plan is written once.
#include <cstddef>
#include <cstdint>

#include "common/host/reducer.h"
#include "common/host/reference.h"
#include "common/launch.h"

namespace rl {
inline namespace RL_BACKEND_NS {

using TreeKernel = void (*)(const float*, float*, std::uint64_t);

// Partials of the first pass plus those of the second: later passes reuse the two regions in turn.
inline std::size_t tree_scratch_bytes(std::uint64_t n, std::uint64_t items_per_block) {
  const std::uint64_t first = ceil_div(n, items_per_block);
  const std::uint64_t second = ceil_div(first, items_per_block);
  return static_cast<std::size_t>((first + second) * sizeof(float));
}

// Every pass adds ceil(log2 items_per_block) levels; a pass over k values leaves ceil(k / per_block).
inline std::uint64_t tree_depth(std::uint64_t n, std::uint64_t items_per_block) {
  std::uint64_t depth = 0;
  do {
    depth += summation_depth(items_per_block, 0);
    n = ceil_div(n, items_per_block);
  } while (n > 1);
  return depth;
}

inline void reduce_in_passes(const char* name, TreeKernel kernel, const float* in, float* out, std::uint64_t n,
                             unsigned block, unsigned items_per_thread, void* scratch, void* stream) {
  const std::uint64_t per_block = std::uint64_t{block} * items_per_thread;
  float* regions[2] = {static_cast<float*>(scratch), static_cast<float*>(scratch) + ceil_div(n, per_block)};
  const float* src = in;
  std::uint64_t count = n;
  for (int pass = 0;; ++pass) {
    // n = 0 still launches one block: the kernel's masking must then write the identity, 0.
    const std::uint64_t blocks = count == 0 ? 1 : ceil_div(count, per_block);
    float* dst = blocks == 1 ? out : regions[pass % 2];
    launch(name, kernel, dim3(static_cast<unsigned>(blocks)), dim3(block), block * sizeof(float), stream, src, dst,
           count);
    if (blocks == 1) return;
    src = dst;
    count = blocks;
  }
}

// The reducer functions of a lesson whose idea is only its kernel: Lesson supplies the slug (used as
// the kernel's name in error reports) and `template <class Trace> static constexpr TreeKernel
// kernel`, the block tree; ItemsPerThread is the inputs each thread reads before the tree.
template <class Lesson, unsigned ItemsPerThread = 1>
struct TreePlan {
  static constexpr const char* variant = "";
  static std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_scratch_bytes(n, std::uint64_t{block} * ItemsPerThread);
  }
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape&,
                     void* stream) {
    reduce_in_passes(Lesson::slug, Lesson::template kernel<Trace>, in, out, n, block, ItemsPerThread, scratch, stream);
  }
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_depth(n, std::uint64_t{block} * ItemsPerThread);
  }
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
