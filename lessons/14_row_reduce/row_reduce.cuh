#pragma once
// Lesson 14: many reductions at once. Each row of a row-major M x N matrix reduces to one value,
// and the whole art is giving every row the right number of threads:
//   short rows  -> a group of `lanes` lanes a row (lanes = 1..32), several rows a warp;
//   medium rows -> a warp a row (the same kernel with lanes = 32);
//   long rows   -> a block a row;
//   few long rows -> several blocks a row, the last block of each row combining the row's partials.
// Operators and accumulators are lesson 13's (reduce_ops.cuh), so is the block tree.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "common/cuda_compat.h"
#include "common/device/block_reduce.cuh"
#include "common/device/pack_load.cuh"
#include "common/device/reduce_ops.cuh"
#include "common/grid_size.h"
#include "common/host/plan.h"
#include "common/host/reference.h"
#include "common/launch.h"

RL_NAMESPACE_BEGIN

inline constexpr unsigned rows_block = 256;
inline constexpr unsigned rows_loads_in_flight = 4;
inline constexpr std::uint64_t rows_ticket_capacity = 4096;  // the split plan is used for at most this many rows

// One ticket counter per row of the split plan: zero at load time, and atomicInc wraps each back to
// zero when the row's last block takes its ticket, so the next launch finds them zero again.
// static: every translation unit that includes this header gets its own (lesson 16 may include it).
[[maybe_unused]] static __device__ unsigned int rows_tickets[rows_ticket_capacity];

// Folds loads first, first + stride, ... < count of one row (load p = elements [p*K, p*K + K)),
// LoadsInFlight of them issued before any is used; increasing index order, which argmax relies on.
template <class Op, class T, bool Vec, bool Stream = false>
__device__ __forceinline__ typename Op::Acc fold_row(typename Op::Acc acc, const T* row, std::uint64_t first,
                                                     std::uint64_t stride, std::uint64_t count) {
  constexpr unsigned K = load_width<T, Vec>, F = rows_loads_in_flight;
  std::uint64_t p = first;
  for (; p + (F - 1) * stride < count; p += F * stride) {
    wide_t<T> v[F][K];
#pragma unroll
    for (unsigned k = 0; k < F; ++k) load_one<T, Vec, Stream>(row + (p + k * stride) * K, v[k]);  // all F in flight
#pragma unroll
    for (unsigned k = 0; k < F; ++k) acc = fold_pack<Op>(acc, v[k], (p + k * stride) * K);
  }
  for (; p < count; p += stride) {
    wide_t<T> v[K];
    load_one<T, Vec, Stream>(row + p * K, v);
    acc = fold_pack<Op>(acc, v, p * K);
  }
  return acc;
}

// lesson 13's shuffle_down, as a butterfly inside groups of `width` lanes: afterwards every lane of
// the group holds the group's combination (combine is commutative, so both partners get the same bits).
template <class V>
__device__ __forceinline__ V shuffle_xor(V v, unsigned mask, int width) {
  unsigned words[sizeof(V) / 4];
  std::memcpy(words, &v, sizeof(V));
#pragma unroll
  for (unsigned k = 0; k < sizeof(V) / 4; ++k) words[k] = __shfl_xor_sync(full_warp, words[k], static_cast<int>(mask), width);
  std::memcpy(&v, words, sizeof(V));
  return v;
}

// The group's fold. A warp holds 32 / lanes groups side by side (lanes = 1, 2, 4, ..., 32), each
// lane of a group a partial of the group's row; all 32 lanes of the warp arrive here together.
template <class Op>
__device__ __forceinline__ typename Op::Acc group_reduce(typename Op::Acc v, unsigned lanes) {
  for (unsigned mask = lanes / 2; mask > 0; mask /= 2) v = Op::combine(v, shuffle_xor(v, mask, static_cast<int>(lanes)));
  return v;
}

// Short and medium rows: `lanes` lanes a row (a power of two up to 32), 32 / lanes rows a warp. A warp
// takes its rows together, so the loop conditions are the same on all 32 lanes and the full-mask
// shuffles are legal even where the last rows are missing.
template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(rows_block) rows_by_groups(const T* in, std::uint64_t m, std::uint64_t n,
                                                             unsigned lanes, typename Op::Out* out) {
  constexpr unsigned K = load_width<T, Vec>, U = rows_loads_in_flight;
  const std::uint64_t loads = ceil_div(n, K);
  const unsigned lane = threadIdx.x % lanes;
  const unsigned rows_per_warp = 32 / lanes;
  const std::uint64_t warp = (std::uint64_t{blockIdx.x} * rows_block + threadIdx.x) / 32;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * (rows_block / 32);
  const std::uint64_t group_in_warp = threadIdx.x % 32 / lanes;
  const std::uint64_t row_stride = warps * rows_per_warp;  // rows between one round of the grid and the next
  std::uint64_t row = warp * rows_per_warp + group_in_warp;
  std::uint64_t first_of_warp = warp * rows_per_warp;  // the same on all lanes: the loops' conditions
  if (loads <= lanes) {
    // At most one load a lane a row: U rows are loaded before any is folded, or a lane would have one
    // small load in flight.
    for (; first_of_warp < m; first_of_warp += U * row_stride, row += U * row_stride) {
      wide_t<T> v[U][K];
#pragma unroll
      for (unsigned u = 0; u < U; ++u)
        if (row + u * row_stride < m && lane < loads) load_one<T, Vec>(in + (row + u * row_stride) * n + lane * K, v[u]);
#pragma unroll
      for (unsigned u = 0; u < U; ++u) {
        typename Op::Acc acc = Op::identity();
        if (row + u * row_stride < m && lane < loads) acc = fold_pack<Op>(acc, v[u], std::uint64_t{lane} * K);
        acc = group_reduce<Op>(acc, lanes);  // every lane takes part, rows or not: the mask is full
        if (lane == 0 && row + u * row_stride < m) out[row + u * row_stride] = Op::finish(acc, n);
      }
    }
  } else {
    for (; first_of_warp < m; first_of_warp += row_stride, row += row_stride) {
      typename Op::Acc acc = Op::identity();
      if (row < m) acc = fold_row<Op, T, Vec>(acc, in + row * n, lane, lanes, loads);
      acc = group_reduce<Op>(acc, lanes);
      if (lane == 0 && row < m) out[row] = Op::finish(acc, n);
    }
  }
}

// Long rows, many of them: a block a row. Each byte is read once and never again, and streaming loads
// (evict-first) tell the caches so: on the H200 that read 4096 x 4096 floats 3% faster than __ldg.
template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(rows_block) rows_by_block(const T* in, std::uint64_t m, std::uint64_t n,
                                                            typename Op::Out* out) {
  const std::uint64_t loads = ceil_div(n, load_width<T, Vec>);
  for (std::uint64_t row = blockIdx.x; row < m; row += gridDim.x) {  // one row, unless m outgrows the grid
    typename Op::Acc acc = fold_row<Op, T, Vec, true>(Op::identity(), in + row * n, threadIdx.x, rows_block, loads);
    acc = block_reduce<Op, rows_block>(acc);
    if (threadIdx.x == 0) out[row] = Op::finish(acc, n);
    __syncthreads();  // the next row's block_reduce reuses the shared warp totals
  }
}

// Few long rows: `splits` blocks a row, each over a contiguous slice of it. Each block publishes its
// partial, and the row's last block to finish (lesson 11's ticket, one counter a row) combines the
// row's partials in slice order: the same bits every run.
template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(rows_block) rows_by_split_blocks(const T* in, std::uint64_t m, std::uint64_t n,
                                                                   unsigned splits, typename Op::Acc* partials,
                                                                   typename Op::Out* out) {
  constexpr unsigned K = load_width<T, Vec>;
  const std::uint64_t loads = ceil_div(n, K);
  const std::uint64_t per_slice = ceil_div(loads, splits);
  __shared__ bool is_last;
  for (std::uint64_t item = blockIdx.x; item < m * splits; item += gridDim.x) {  // the same on the whole block
    const std::uint64_t row = item / splits, slice = item % splits;
    const std::uint64_t begin = slice * per_slice, end = begin + per_slice < loads ? begin + per_slice : loads;
    const T* base = in + row * n + begin * K;  // fold_row's indices count from here: shift them back
    typename Op::Acc acc = Op::identity();
    if (begin < end) {
      acc = fold_row<Op, T, Vec>(acc, base, threadIdx.x, rows_block, end - begin);
      if constexpr (requires { acc.index; })
        if (acc.index != ~std::uint64_t{0}) acc.index += begin * K;  // a slice's index -> the row's index
    }
    acc = block_reduce<Op, rows_block>(acc);
    if (threadIdx.x == 0) {
      partials[item] = acc;
      __threadfence();  // the partial is in L2 before the ticket says so
      is_last = atomicInc(&rows_tickets[row], splits - 1) == splits - 1;
    }
    __syncthreads();  // is_last is set; also separates the two block_reduce calls
    if (is_last) {
      typename Op::Acc total = Op::identity();
      for (unsigned s = threadIdx.x; s < splits; s += rows_block)
        total = Op::combine(total, load_l2(partials + row * splits + s));
      total = block_reduce<Op, rows_block>(total);  // a fixed tree over a fixed order
      if (threadIdx.x == 0) out[row] = Op::finish(total, n);
    }
    __syncthreads();  // the next item's block_reduce reuses the shared totals
  }
}

// The plan, on the host: which kernel, how many lanes or blocks a row, how many blocks in all. It is
// chosen from the shape in 16-byte packs, so that scratch never depends on the input's alignment.
struct RowPlan {
  unsigned lanes = 0;    // > 0: rows_by_groups with this many lanes a row; 0: a block or more a row
  unsigned splits = 1;   // 1: rows_by_block; more: rows_by_split_blocks with this many blocks a row
  unsigned grid = 1;
};

template <class T>
RowPlan rows_plan(std::uint64_t m, std::uint64_t n, bool vec, const DeviceShape& s) {
  const std::uint64_t packs = ceil_div(n * sizeof(T), 16);
  const std::uint64_t loads = vec ? packs : n;
  const std::uint64_t resident_blocks = std::uint64_t{s.sm_count} * (s.max_threads_per_sm / rows_block);
  const std::uint64_t resident_warps = resident_blocks * (rows_block / 32);
  RowPlan p;
  if (packs <= 256 || (packs <= 1024 && m >= resident_warps / 2)) {
    // Group rows: up to 8 packs a lane, and enough rows to keep every warp of the GPU busy.
    p.lanes = static_cast<unsigned>(std::min<std::uint64_t>(next_pow2(loads), 32));
    const std::uint64_t rows_per_block = rows_block / p.lanes;
    p.grid = static_cast<unsigned>(std::clamp<std::uint64_t>(ceil_div(m, rows_per_block), 1, resident_blocks));
    return p;
  }
  // Few rows: split each across enough blocks to fill the GPU once, but give every thread at
  // least 4 packs (fewer and the block's fixed costs outweigh its loads).
  if (m < resident_blocks && m <= rows_ticket_capacity) {
    const std::uint64_t want = ceil_div(resident_blocks, m);
    const std::uint64_t worth = std::max<std::uint64_t>(1, packs / (std::uint64_t{rows_block} * 4));
    p.splits = static_cast<unsigned>(std::min(want, worth));
  }
  p.grid = static_cast<unsigned>(std::clamp<std::uint64_t>(m * p.splits, 1, std::uint64_t{1} << 30));
  return p;
}

template <class Op, class T>
std::size_t rows_scratch_bytes(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  const RowPlan p = rows_plan<T>(m, n, true, s);
  return p.lanes == 0 && p.splits > 1 ? m * p.splits * sizeof(typename Op::Acc) : 0;
}

// Reduces each row of the m x n matrix at device address `in` into out[0, m); see row_reduce_api.h.
template <class Op, class T>
void rows_reduce(const T* in, std::uint64_t m, std::uint64_t n, typename Op::Out* out, void* scratch,
                 const DeviceShape& s, void* stream) {
  if (m == 0) return;
  const bool vec = rows_vectorizable(in, n);
  const RowPlan p = rows_plan<T>(m, n, vec, s);
  auto* partials = static_cast<typename Op::Acc*>(scratch);
  if (p.lanes > 0) {
    if (vec) launch("rows_by_groups", rows_by_groups<Op, T, true>, dim3(p.grid), dim3(rows_block), 0, stream, in, m, n, p.lanes, out);
    else launch("rows_by_groups", rows_by_groups<Op, T, false>, dim3(p.grid), dim3(rows_block), 0, stream, in, m, n, p.lanes, out);
  } else if (p.splits == 1) {
    if (vec) launch("rows_by_block", rows_by_block<Op, T, true>, dim3(p.grid), dim3(rows_block), 0, stream, in, m, n, out);
    else launch("rows_by_block", rows_by_block<Op, T, false>, dim3(p.grid), dim3(rows_block), 0, stream, in, m, n, out);
  } else {
    if (vec) launch("rows_by_split_blocks", rows_by_split_blocks<Op, T, true>, dim3(p.grid), dim3(rows_block), 0, stream, in, m, n, p.splits, partials, out);
    else launch("rows_by_split_blocks", rows_by_split_blocks<Op, T, false>, dim3(p.grid), dim3(rows_block), 0, stream, in, m, n, p.splits, partials, out);
  }
}

template <class T>
std::string rows_plan_text(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  const RowPlan p = rows_plan<T>(m, n, n * sizeof(T) % 16 == 0, s);  // an aligned base assumed
  if (p.lanes == 32) return "a warp a row, " + std::to_string(p.grid) + " blocks";
  if (p.lanes > 0)
    return std::to_string(32 / p.lanes) + " rows a warp (" + std::to_string(p.lanes) + " lanes), " +
           std::to_string(p.grid) + " blocks";
  if (p.splits == 1) return "a block a row, " + std::to_string(p.grid) + " blocks";
  return std::to_string(p.splits) + " blocks a row, " + std::to_string(p.grid) + " blocks";
}

// The longest chain of combines from one input to an output (for the tolerance): a thread's loads,
// a pack's own chain, the group or block tree(s), and the split plan's run over the partials.
template <class Op, class T>
std::uint64_t rows_depth(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  const RowPlan p = rows_plan<T>(m, n, false, s);  // scalar loads: the longest per-thread chain
  if (p.lanes > 0) return ceil_div(n, p.lanes) + pack_size<T> + 6;
  return ceil_div(ceil_div(n, p.splits), rows_block) + pack_size<T> + 2 + 2 * summation_depth(rows_block, 0) +
         ceil_div(p.splits, rows_block);
}

RL_NAMESPACE_END
