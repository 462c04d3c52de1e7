#pragma once
// Lesson 21's launch plan. The axes plan (axes_plan.h) has merged and ordered the axes; this file
// turns it into launches of any_axes.cuh's kernels: which kernel, how wide a load, how many lanes
// an output, how many splits, and the finish over the splits' partials; its scratch and its depth
// (the tolerance). axes_kernels.cu includes it after the kernel header, and CMake compiles that
// file twice: by nvcc for the GPU and by g++ for the simulator.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/host/plan.h"
#include "common/launch.h"
#include "lessons/21_any_axes/any_axes.cuh"
#include "lessons/21_any_axes/axes_plan.h"

RL_NAMESPACE_BEGIN

// The plan as the kernels' argument (AxesGeometry, any_axes.cuh): its merged axes, innermost first.
inline AxesGeometry geometry_of(const AxesPlan& p) {
  AxesGeometry g{};
  const auto kept = p.kept_inner_first(), red = p.reduced_inner_first();
  g.kept_rank = static_cast<unsigned>(kept.size());
  g.red_rank = static_cast<unsigned>(red.size());
  for (unsigned i = 0; i < g.kept_rank; ++i)
    g.kept_size[i] = kept[i].size, g.kept_stride[i] = kept[i].stride,
    g.kept_out[i] = kept[i].out_stride;
  for (unsigned i = 0; i < g.red_rank; ++i)
    g.red_size[i] = red[i].size, g.red_stride[i] = red[i].stride,
    g.red_index[i] = red[i].index_stride;
  g.outputs = p.outputs;
  g.reduced = p.reduced;
  return g;
}

// ---- The launch plan: which kernel, how wide a pack, how many lanes, how many splits. ----

struct AxesLaunch {
  bool inner = false;   // reduce_inner_axes (reduced innermost) or reduce_outer_axes
  bool vec = false;     // 16-byte packs along the innermost axis
  unsigned group = 32;  // inner: lanes per output
  unsigned block_x = axes_block, block_y = 1;  // outer: threads along the outputs, along the splits
  // splits of the reduction (outer: grid.y * block_y of them, folded to grid.y partials)
  unsigned splits = 1;
  unsigned partials = 1;        // partials per output for finish_partials (grid.y); 1: no finish
  std::uint64_t per_split = 0;  // inner: units per split; outer: reduced elements per split
  dim3 grid{1, 1, 1};
};

inline unsigned pow2_at_least(std::uint64_t x, unsigned cap) {
  unsigned p = 1;
  while (p < x && p < cap) p *= 2;
  return p;
}

// Packs of 16 bytes need: the innermost axis contiguous, its length a whole number of packs, and
// every other stride (and the base address) a whole number of packs, so that every pack is aligned.
inline bool packs_fit(const AxesPlan& p, std::size_t elem_bytes, const void* in) {
  const std::uint64_t V = 16 / elem_bytes;
  if (p.axes.empty() || p.axes.back().stride != 1 || p.axes.back().size % V != 0) return false;
  if (reinterpret_cast<std::uintptr_t>(in) % 16 != 0) return false;
  for (std::size_t i = 0; i + 1 < p.axes.size(); ++i)
    if (p.axes[i].stride % V != 0) return false;
  return true;
}

inline AxesLaunch plan_launch(const AxesPlan& p, std::size_t elem_bytes, const void* in,
                              const DeviceShape& s) {
  AxesLaunch l;
  l.inner = !p.axes.empty() && p.axes.back().reduced;
  l.vec = packs_fit(p, elem_bytes, in);
  const std::uint64_t V = l.vec ? 16 / elem_bytes : 1, L = axes_loads_in_flight;
  // Enough threads for half the GPU's thread slots, each with L loads in flight: past that, more
  // splits buy only more partials to write and read.
  const std::uint64_t target_threads = std::uint64_t{s.sm_count} * s.max_threads_per_sm / 2;
  const std::uint64_t M = std::max<std::uint64_t>(p.outputs, 1);
  if (l.inner) {
    const std::uint64_t inner = p.axes.back().size, packs = (inner + V - 1) / V;
    // each lane L packs of a row where the row allows
    l.group = pow2_at_least((packs + L - 1) / L, 32);
    const std::uint64_t chunk = l.group * V * L, chunks = (inner + chunk - 1) / chunk;
    const std::uint64_t units = chunks * (p.reduced / inner);
    const std::uint64_t threads = M * l.group;
    std::uint64_t splits = std::max<std::uint64_t>(1, target_threads / threads);
    // >= 4 units a split
    splits = std::min<std::uint64_t>({splits, std::max<std::uint64_t>(1, units / 4), 65535});
    l.per_split = (units + splits - 1) / splits;
    l.splits = static_cast<unsigned>(std::max<std::uint64_t>(
        1, (units + l.per_split - 1) / std::max<std::uint64_t>(l.per_split, 1)));
    l.grid = dim3(static_cast<unsigned>(ceil_div(M * l.group, axes_block)), l.splits, 1);
  } else {
    const std::uint64_t threads_x = ceil_div(M, V);
    // Fewer than 32 threads' worth of outputs: the rest of the warp takes other splits (their rows
    // are still whole 32-byte sectors), and the block folds its splits before writing.
    l.block_x = pow2_at_least(threads_x, axes_block);
    l.block_y = axes_block / l.block_x;
    std::uint64_t splits = std::max<std::uint64_t>(1, target_threads / threads_x);
    // >= 32 elements a split
    splits = std::min<std::uint64_t>(splits, std::max<std::uint64_t>(1, p.reduced / (8 * L)));
    splits = ceil_div(splits, l.block_y) * l.block_y;  // whole blocks along y
    splits = std::min<std::uint64_t>(splits, 65535u * l.block_y);
    l.per_split = std::max<std::uint64_t>(1, ceil_div(p.reduced, splits));
    l.splits = static_cast<unsigned>(splits);
    l.grid = dim3(static_cast<unsigned>(ceil_div(threads_x, l.block_x)),
                  static_cast<unsigned>(splits / l.block_y), 1);
  }
  l.partials = l.grid.y;
  return l;
}

template <class Op>
std::size_t axes_scratch_bytes(const AxesLaunch& l, const AxesPlan& p) {
  return l.partials > 1 ? std::size_t{l.partials} * p.outputs * sizeof(typename Op::Acc) : 0;
}

//   reduce_inner_axes<Op, T, G, Vec><<<l.grid, axes_block, 0, stream>>>(in, g, l.per_split,
//                                                                       partials, out);
template <class Op, class T, unsigned G>
void launch_inner(const T* in, const AxesGeometry& g, const AxesLaunch& l,
                  typename Op::Acc* partials, typename Op::Out* out, void* stream) {
  if (l.vec)
    launch("reduce_inner_axes", reduce_inner_axes<Op, T, G, true>, l.grid, dim3(axes_block), 0,
           stream, in, g, l.per_split, partials, out);
  else
    launch("reduce_inner_axes", reduce_inner_axes<Op, T, G, false>, l.grid, dim3(axes_block), 0,
           stream, in, g, l.per_split, partials, out);
}

// Enqueues the whole reduction; `scratch` holds axes_scratch_bytes<Op>(l, p) bytes.
template <class Op, class T>
void reduce_axes_with(const T* in, const AxesPlan& p, const AxesLaunch& l, void* scratch,
                      typename Op::Out* out, void* stream) {
  if (p.outputs == 0) return;
  const AxesGeometry g = geometry_of(p);
  auto* partials = static_cast<typename Op::Acc*>(scratch);
  if (l.inner) {
    switch (l.group) {  // the group width is a template parameter: the shuffle tree unrolls
      case 1:
        launch_inner<Op, T, 1>(in, g, l, partials, out, stream);
        break;
      case 2:
        launch_inner<Op, T, 2>(in, g, l, partials, out, stream);
        break;
      case 4:
        launch_inner<Op, T, 4>(in, g, l, partials, out, stream);
        break;
      case 8:
        launch_inner<Op, T, 8>(in, g, l, partials, out, stream);
        break;
      case 16:
        launch_inner<Op, T, 16>(in, g, l, partials, out, stream);
        break;
      default:
        launch_inner<Op, T, 32>(in, g, l, partials, out, stream);
        break;
    }
  } else if (l.vec) {
    //   reduce_outer_axes<Op, T, Vec><<<l.grid, dim3(l.block_x, l.block_y), 0, stream>>>(
    //       in, g, l.per_split, partials, out);
    launch("reduce_outer_axes", reduce_outer_axes<Op, T, true>, l.grid, dim3(l.block_x, l.block_y),
           0, stream, in, g, l.per_split, partials, out);
  } else {
    launch("reduce_outer_axes", reduce_outer_axes<Op, T, false>, l.grid, dim3(l.block_x, l.block_y),
           0, stream, in, g, l.per_split, partials, out);
  }
  // The splits' partials, a warp an output:
  //   finish_partials<Op><<<ceil(outputs * 32 / axes_block), axes_block, 0, stream>>>(
  //       g, l.partials, partials, out);
  if (l.partials > 1)
    launch("finish_partials", finish_partials<Op>,
           dim3(static_cast<unsigned>(ceil_div(p.outputs * 32, axes_block))), dim3(axes_block), 0,
           stream, g, l.partials, static_cast<const typename Op::Acc*>(partials), out);
}

// The longest chain of combines from an input to an output: a lane's (or thread's) run, a pack,
// the group's shuffle tree, the splits in a row.
inline std::uint64_t axes_depth(const AxesPlan& p, const AxesLaunch& l, std::size_t elem_bytes) {
  const std::uint64_t V = l.vec ? 16 / elem_bytes : 1;
  std::uint64_t per_thread = l.per_split;
  if (l.inner) per_thread = l.per_split * V * axes_loads_in_flight;
  (void)p;
  // + the block's fold of its splits (outer) + a lane's run of partials and the warp tree (finish).
  return per_thread + V + 6 + 8 + ceil_div(l.partials, 32) + 5;
}

RL_NAMESPACE_END
