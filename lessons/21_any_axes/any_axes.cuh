#pragma once
// Lesson 21: a reduction over any subset of the axes of a strided tensor. The plan (axes_plan.h)
// has already merged and ordered the axes; what is left for the GPU is one question, asked of the
// innermost axis (the one with stride 1): who owns it?
//
//   reduced innermost -> reduce_inner_axes: a group of lanes per output reads along the reduction,
//                        16 bytes a lane, neighbouring lanes neighbouring addresses (lesson 19's
//                        rows);
//   kept innermost    -> reduce_outer_axes: a thread per pack of neighbouring outputs walks the
//                        reduction alone; a warp's 32 loads are one contiguous run (lesson 20's
//                        columns).
//
// Every other axis is index arithmetic: a counter per axis (an odometer), advanced once per load,
// so no division sits in the inner loop. When there are too few outputs to fill the GPU the
// reduction is split (grid.y): each split writes a partial, and finish_partials combines them in a
// fixed order, so the result has the same bits every run. The kernels only: the launch plan is
// plan.cuh's.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/device/block_reduce.cuh"
#include "common/device/pack_load.cuh"
#include "common/device/reduce_ops.cuh"
#include "lessons/21_any_axes/max_rank.h"

RL_NAMESPACE_BEGIN

// The plan as a kernel argument: fixed arrays (a kernel takes no std::vector), innermost first.
struct AxesGeometry {
  unsigned kept_rank, red_rank;
  std::uint64_t kept_size[max_rank], kept_stride[max_rank], kept_out[max_rank];
  std::uint64_t red_size[max_rank], red_stride[max_rank], red_index[max_rank];
  std::uint64_t outputs, reduced;  // M, K
};

// Where the kept position k (numbered innermost-fastest over the merged kept axes) lives: its input
// offset and its output offset. Once per output, so the divisions do not matter.
__device__ __forceinline__ void locate_kept(const AxesGeometry& g, std::uint64_t k,
                                            std::uint64_t& in_off, std::uint64_t& out_off) {
  in_off = 0;
  out_off = 0;
  for (unsigned i = 0; i < g.kept_rank; ++i) {
    const std::uint64_t q = k / g.kept_size[i], idx = k - q * g.kept_size[i];
    in_off += idx * g.kept_stride[i];
    out_off += idx * g.kept_out[i];
    k = q;
  }
}

// A counter per reduced axis from `first` on (axes first..red_rank-1 of the geometry), advanced one
// step at a time: the innermost counter moves, and carries ripple outwards only on wrap-around.
struct Odometer {
  std::uint64_t at[max_rank];
  std::uint64_t offset, index;  // input offset and reduced-element number of the current position
};

// InRegisters: the loops over the axes are unrolled over all max_rank of them, so that every
// o.at[i] has a constant index and lives in a register. Rolled up, o.at lives in local memory, and
// a step must wait for a local load queued behind the thread's global loads: where the odometer
// moves once per load (reduce_outer_axes) the loads would go one at a time. Where it moves once per
// unit of many loads (reduce_inner_axes) local memory costs little, and the registers are worth
// more as occupancy.
template <bool InRegisters>
__device__ __forceinline__ void odometer_start(const AxesGeometry& g, unsigned first,
                                               std::uint64_t r, Odometer& o) {
  o.offset = 0;
  o.index = 0;
#pragma unroll(InRegisters ? max_rank : 1)
  for (unsigned i = 0; i < max_rank; ++i) {
    if (i < first || i >= g.red_rank) continue;
    const std::uint64_t q = r / g.red_size[i];
    o.at[i] = r - q * g.red_size[i];
    o.offset += o.at[i] * g.red_stride[i];
    o.index += o.at[i] * g.red_index[i];
    r = q;
  }
}

template <bool InRegisters>
__device__ __forceinline__ void odometer_step(const AxesGeometry& g, unsigned first, Odometer& o) {
#pragma unroll(InRegisters ? max_rank : 1)
  for (unsigned i = 0; i < max_rank; ++i) {
    if (i < first || i >= g.red_rank) continue;
    o.offset += g.red_stride[i];
    o.index += g.red_index[i];
    if (++o.at[i] < g.red_size[i]) return;
    // Wrapped: back to 0 on this axis (undo its whole run) and carry into the next one out.
    o.at[i] = 0;
    o.offset -= g.red_size[i] * g.red_stride[i];
    o.index -= g.red_size[i] * g.red_index[i];
  }
}

// std::min is host-only under nvcc (without --expt-relaxed-constexpr): the kernels use this one.
__host__ __device__ __forceinline__ std::uint64_t min_u64(std::uint64_t a, std::uint64_t b) {
  return a < b ? a : b;
}

// lesson 07's lesson: several loads per thread before any add
inline constexpr unsigned axes_loads_in_flight = 4;
inline constexpr unsigned axes_block = 256;

// Either the final answer at the output, or this split's partial for finish_partials.
template <class Op>
__device__ __forceinline__ void deliver(typename Op::Acc acc, std::uint64_t k,
                                        std::uint64_t out_off, std::uint64_t reduced,
                                        unsigned split, unsigned splits, std::uint64_t outputs,
                                        typename Op::Acc* partials, typename Op::Out* out) {
  if (splits == 1)
    out[out_off] = Op::finish(acc, reduced);
  else
    partials[std::uint64_t{split} * outputs + k] = acc;
}

// Reduced innermost. G lanes (a power of two, at most 32) share one output: lane l reads packs l, l
// + G, l + 2G, ... of the innermost reduced axis, so the group's loads are one contiguous run, and
// the group folds its lanes with lesson 18's shuffles. The rest of the reduced axes are "units":
// one unit is one chunk of the innermost axis at one position of the outer reduced axes; split s
// takes units [s * units_per_split, ...), walked by an odometer, so no unit costs a division.
template <class Op, class T, unsigned G, bool Vec>
__global__ void __launch_bounds__(axes_block)
    reduce_inner_axes(const T* in, AxesGeometry g, std::uint64_t units_per_split,
                      typename Op::Acc* partials, typename Op::Out* out) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0,
                "a group is a power-of-two slice of a warp");
  constexpr unsigned V = load_width<T, Vec>, L = axes_loads_in_flight;
  // elements of the innermost axis per unit
  constexpr std::uint64_t chunk = std::uint64_t{G} * V * L;
  const std::uint64_t k = (std::uint64_t{blockIdx.x} * axes_block + threadIdx.x) / G;
  const unsigned lane = threadIdx.x % G;
  const bool valid = k < g.outputs;  // no early return: the whole warp must reach the shuffles
  std::uint64_t base = 0, out_off = 0;
  if (valid) locate_kept(g, k, base, out_off);

  const std::uint64_t inner = g.red_rank > 0 ? g.red_size[0] : 1;
  const std::uint64_t inner_stride = g.red_rank > 0 ? g.red_stride[0] : 0,
                      inner_index = g.red_rank > 0 ? g.red_index[0] : 0;
  const std::uint64_t chunks = (inner + chunk - 1) / chunk,
                      outer = g.reduced / (inner > 0 ? inner : 1);
  const std::uint64_t units = g.reduced > 0 ? chunks * outer : 0;
  const std::uint64_t u0 = min_u64(units, std::uint64_t{blockIdx.y} * units_per_split);
  const std::uint64_t u1 = min_u64(units, u0 + units_per_split);

  typename Op::Acc acc = Op::identity();
  if (valid && u0 < u1) {
    std::uint64_t c = u0 % chunks;  // the chunk within the innermost axis
    Odometer o;
    odometer_start<false>(g, 1, u0 / chunks, o);  // and the position on the outer reduced axes
    for (std::uint64_t u = u0; u < u1; ++u) {
      // All L loads are issued before the first is used: that is what keeps DRAM busy.
      wide_t<T> v[L][V] = {};  // zeros where a load is skipped (never folded; keeps g++ sure of it)
      bool live[L];
#pragma unroll
      for (unsigned j = 0; j < L; ++j) {
        // position on the innermost axis
        const std::uint64_t p = c * chunk + (std::uint64_t{j} * G + lane) * V;
        live[j] = p < inner;
        if (!live[j]) continue;
        const T* at = in + base + o.offset + p * inner_stride;
        if constexpr (Vec)
          widen_pack<T>(load_raw<T>(at), v[j]);
        else
          v[j][0] = Widen<T>::from(at[0]);
      }
#pragma unroll
      for (unsigned j = 0; j < L; ++j) {
        if (!live[j]) continue;
        const std::uint64_t p = c * chunk + (std::uint64_t{j} * G + lane) * V;
#pragma unroll
        for (unsigned e = 0; e < V; ++e)
          acc = Op::combine(acc, Op::transform(v[j][e], o.index + (p + e) * inner_index));
      }
      if (++c == chunks) {
        c = 0;
        odometer_step<false>(g, 1, o);
      }
    }
  }
  // The group's lanes, folded: lane 0 of each group ends with lanes [0, G) (offsets below G never
  // let a group's lane 0 see another group's lanes).
#pragma unroll
  for (unsigned offset = G / 2; offset > 0; offset /= 2)
    acc = Op::combine(acc, shuffle_down(acc, offset));
  if (valid && lane == 0)
    deliver<Op>(acc, k, out_off, g.reduced, blockIdx.y, gridDim.y, g.outputs, partials, out);
}

// Kept innermost. Thread q owns the V neighbouring outputs k = qV .. qV+V-1 along the innermost
// kept axis (one 16-byte load feeds V outputs) and walks its split of the reduced elements alone,
// through an odometer over all reduced axes; a warp's loads at each step are 32 neighbouring packs.
// blockDim.y threads (and grid.y blocks) split the reduction when there are few outputs.
template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(axes_block)
    reduce_outer_axes(const T* in, AxesGeometry g, std::uint64_t reduced_per_split,
                      typename Op::Acc* partials, typename Op::Out* out) {
  constexpr unsigned V = load_width<T, Vec>, L = axes_loads_in_flight;
  const std::uint64_t k = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) * V;
  const bool valid = k < g.outputs;  // no early return: the block meets at barriers below
  const unsigned split = blockIdx.y * blockDim.y + threadIdx.y;
  std::uint64_t base = 0, out_off = 0;
  if (valid) locate_kept(g, k, base, out_off);
  const std::uint64_t r0 = valid ? min_u64(g.reduced, std::uint64_t{split} * reduced_per_split) : 0;
  const std::uint64_t r1 = valid ? min_u64(g.reduced, r0 + reduced_per_split) : 0;

  typename Op::Acc acc[V];
#pragma unroll
  for (unsigned e = 0; e < V; ++e) acc[e] = Op::identity();
  Odometer o;
  odometer_start<true>(g, 0, r0, o);
  for (std::uint64_t r = r0; r < r1; r += L) {
    wide_t<T> v[L][V] = {};
    std::uint64_t index[L] = {};
    const unsigned n = static_cast<unsigned>(min_u64(L, r1 - r));
#pragma unroll
    for (unsigned j = 0; j < L; ++j) {
      if (j >= n) continue;
      const T* at = in + base + o.offset;
      if constexpr (Vec)
        widen_pack<T>(load_raw<T>(at), v[j]);
      else
        v[j][0] = Widen<T>::from(at[0]);
      index[j] = o.index;
      odometer_step<true>(g, 0, o);
    }
#pragma unroll
    for (unsigned j = 0; j < L; ++j) {
      if (j >= n) continue;
#pragma unroll
      for (unsigned e = 0; e < V; ++e)
        acc[e] = Op::combine(acc[e], Op::transform(v[j][e], index[j]));
    }
  }
  // The block's rows of threads (threadIdx.y) hold splits of the same outputs: fold them here, in a
  // fixed tree through shared memory, so that only one partial per block leaves the SM.
  if (blockDim.y > 1) {
    __shared__ typename Op::Acc tile[axes_block][V];
    const unsigned me = threadIdx.y * blockDim.x + threadIdx.x;
#pragma unroll
    for (unsigned e = 0; e < V; ++e) tile[me][e] = acc[e];
    for (unsigned half = blockDim.y / 2; half > 0; half /= 2) {
      __syncthreads();
      if (threadIdx.y < half)
#pragma unroll
        for (unsigned e = 0; e < V; ++e)
          tile[me][e] = Op::combine(tile[me][e], tile[me + half * blockDim.x][e]);
    }
    __syncthreads();
    if (threadIdx.y > 0) return;
#pragma unroll
    for (unsigned e = 0; e < V; ++e) acc[e] = tile[me][e];
  }
  if (!valid) return;
  // Vec: the V outputs are neighbours on the innermost kept axis (its size is a multiple of V).
  const std::uint64_t out_step = g.kept_rank > 0 ? g.kept_out[0] : 0;
#pragma unroll
  for (unsigned e = 0; e < V; ++e)
    deliver<Op>(acc[e], k + e, out_off + e * out_step, g.reduced, blockIdx.y, gridDim.y, g.outputs,
                partials, out);
}

// The splits' partials, a warp per output: lane l folds partials l, l + 32, ... in order, then
// lesson 18's shuffle tree. A fixed tree over a fixed order: the same bits every run.
template <class Op>
__global__ void __launch_bounds__(axes_block)
    finish_partials(AxesGeometry g, unsigned splits, const typename Op::Acc* partials,
                    typename Op::Out* out) {
  const std::uint64_t k = (std::uint64_t{blockIdx.x} * axes_block + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const bool valid = k < g.outputs;  // the whole warp reaches the shuffles
  typename Op::Acc acc = Op::identity();
  if (valid)
    for (unsigned s = lane; s < splits; s += 32)
      acc = Op::combine(acc, partials[std::uint64_t{s} * g.outputs + k]);
  acc = warp_reduce<Op>(acc);
  if (!valid || lane != 0) return;
  std::uint64_t in_off = 0, out_off = 0;
  locate_kept(g, k, in_off, out_off);
  out[out_off] = Op::finish(acc, g.reduced);
}

RL_NAMESPACE_END
