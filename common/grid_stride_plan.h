#pragma once
// The launch plan of lessons 07-09: a grid sized to fill the GPU once, whose threads each walk the
// input in grid-sized strides; its per-block partials are reduced by a second launch of the same
// kernel with a single block. Written once here so the lessons hold only their kernels.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/block_dispatch.h"
#include "common/host/reducer.h"
#include "common/host/reference.h"
#include "common/launch.h"

namespace rl {
inline namespace RL_BACKEND_NS {

// Blocks that fit on the GPU at once (Block threads each), but no more than the input can feed
// with `items_per_thread` elements per thread.
inline unsigned persistent_grid(std::uint64_t n, unsigned block, unsigned items_per_thread, const DeviceShape& s) {
  const std::uint64_t resident = std::uint64_t{s.sm_count} * std::clamp(s.max_threads_per_sm / block, 1u, 32u);
  const std::uint64_t useful = ceil_div(std::max<std::uint64_t>(n, 1), std::uint64_t{block} * items_per_thread);
  return static_cast<unsigned>(std::min(resident, useful));
}

using GridKernel = void (*)(const float*, float*, std::uint64_t);

// Lesson supplies slug and `template <unsigned Block, class Trace> static constexpr GridKernel kernel`; the
// kernel gets SharedBytesPerThread * Block bytes of dynamic shared memory (0: it uses none).
template <class Lesson, unsigned ItemsPerThread = 2, unsigned SharedBytesPerThread = sizeof(float)>
struct GridStridePlan {
  static constexpr const char* variant = "";
  static std::size_t scratch_bytes(std::uint64_t n, unsigned block, const DeviceShape& s) {
    return persistent_grid(n, block, ItemsPerThread, s) * sizeof(float);
  }
  template <class Trace>
  static void reduce(const float* in, float* out, std::uint64_t n, unsigned block, void* scratch, const DeviceShape& s,
                     void* stream) {
    const GridKernel kernel = kernel_for_block<Lesson, Trace>(block);
    const unsigned grid = persistent_grid(n, block, ItemsPerThread, s);
    const std::size_t smem = std::size_t{block} * SharedBytesPerThread;
    if (grid == 1) return launch(Lesson::slug, kernel, dim3(1), dim3(block), smem, stream, in, out, n);
    auto* partials = static_cast<float*>(scratch);
    launch(Lesson::slug, kernel, dim3(grid), dim3(block), smem, stream, in, partials, n);
    launch(Lesson::slug, kernel, dim3(1), dim3(block), smem, stream, static_cast<const float*>(partials), out,
           std::uint64_t{grid});  // the same kernel, one block, over the partials
  }
  // Each thread's sequential run, its block's tree, then the second launch's run and tree.
  static std::uint64_t depth(std::uint64_t n, unsigned block, const DeviceShape& s) {
    const std::uint64_t grid = persistent_grid(n, block, ItemsPerThread, s);
    const std::uint64_t first = summation_depth(block, ceil_div(n, grid * block));
    return grid == 1 ? first : first + summation_depth(block, ceil_div(grid, block));
  }
};

}  // namespace RL_BACKEND_NS
}  // namespace rl
