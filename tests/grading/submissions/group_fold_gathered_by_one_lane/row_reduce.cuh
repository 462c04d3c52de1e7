#pragma once
// Lesson 19: many reductions at once. Each row of a row-major M x N matrix reduces to one value,
// and the whole art is giving every row the right number of threads:
//   short rows  -> a group of `lanes` lanes a row (lanes = 1..32), several rows a warp;
//   medium rows -> a warp a row (the same kernel with lanes = 32);
//   long rows   -> a block a row;
//   few long rows -> several blocks a row, the last block of each row combining the row's partials.
// Operators and accumulators are lesson 18's (reduce_ops.cuh), so is the block tree. The kernels
// only: the plan that picks one, and its launch, are plan.cuh's.
#include <cstdint>
#include <cstring>

#include "common/cuda_compat.h"
#include "common/device/block_reduce.cuh"
#include "common/device/ceil_div.cuh"
#include "common/device/pack_load.cuh"
#include "common/device/reduce_ops.cuh"

RL_NAMESPACE_BEGIN

inline constexpr unsigned rows_block = 256;
inline constexpr unsigned rows_loads_in_flight = 4;
// the split plan is used for at most this many rows
inline constexpr std::uint64_t rows_ticket_capacity = 4096;

// One ticket counter per row of the split plan: zero at load time, and atomicInc wraps each back to
// zero when the row's last block takes its ticket, so the next launch finds them zero again.
// static: every translation unit that includes this header gets its own (lesson 21 may include it).
[[maybe_unused]] static __device__ unsigned int rows_tickets[rows_ticket_capacity];

// Folds loads first, first + stride, ... < count of one row (load p = elements [p*K, p*K + K)),
// LoadsInFlight of them issued before any is used; increasing index order, which argmax relies on.
template <class Op, class T, bool Vec, bool Stream = false>
__device__ __forceinline__ typename Op::Acc fold_row(typename Op::Acc acc, const T* row,
                                                     std::uint64_t first, std::uint64_t stride,
                                                     std::uint64_t count) {
  constexpr unsigned K = load_width<T, Vec>, F = rows_loads_in_flight;
  std::uint64_t p = first;
  for (; p + (F - 1) * stride < count; p += F * stride) {
    wide_t<T> v[F][K];
    // all F in flight
#pragma unroll
    for (unsigned k = 0; k < F; ++k) load_one<T, Vec, Stream>(row + (p + k * stride) * K, v[k]);
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

// lesson 18's shuffle_down, as a butterfly inside groups of `width` lanes: afterwards every lane of
// the group holds the group's combination (combine is commutative, so both partners get the same
// bits).
template <class V>
__device__ __forceinline__ V shuffle_xor(V v, unsigned mask, int width) {
  unsigned words[sizeof(V) / 4];
  std::memcpy(words, &v, sizeof(V));
#pragma unroll
  for (unsigned k = 0; k < sizeof(V) / 4; ++k)
    words[k] = __shfl_xor_sync(full_warp, words[k], static_cast<int>(mask), width);
  std::memcpy(&v, words, sizeof(V));
  return v;
}

// The group's fold. A warp holds 32 / lanes groups side by side (lanes = 1, 2, 4, ..., 32), each
// lane of a group a partial of the group's row; all 32 lanes of the warp arrive here together.
template <class Op>
__device__ __forceinline__ typename Op::Acc group_reduce(typename Op::Acc v, unsigned lanes) {
  // Lane 0 of each group takes in its group's partials one by one, in lane order: right, and the
  // same bits every run, but lanes - 1 exchanges one after another where log2(lanes) would do.
  typename Op::Acc total = v;
  for (unsigned from = 1; from < lanes; ++from) {
    // lane 0 of the group gets lane `from`'s partial (0 ^ from); every lane takes part
    total = Op::combine(total, shuffle_xor(v, from, static_cast<int>(lanes)));
  }
  return total;
}

// Short and medium rows: `lanes` lanes a row (a power of two up to 32), 32 / lanes rows a warp. A
// warp takes its rows together, so the loop conditions are the same on all 32 lanes and the
// full-mask shuffles are legal even where the last rows are missing.
template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(rows_block)
    rows_by_groups(const T* in, std::uint64_t m, std::uint64_t n, unsigned lanes,
                   typename Op::Out* out) {
  constexpr unsigned K = load_width<T, Vec>, U = rows_loads_in_flight;
  const std::uint64_t loads = ceil_div(n, K);
  const unsigned lane = threadIdx.x % lanes;
  const unsigned rows_per_warp = 32 / lanes;
  const std::uint64_t warp = (std::uint64_t{blockIdx.x} * rows_block + threadIdx.x) / 32;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * (rows_block / 32);
  const std::uint64_t group_in_warp = threadIdx.x % 32 / lanes;
  // rows between one round of the grid and the next
  const std::uint64_t row_stride = warps * rows_per_warp;
  std::uint64_t row = warp * rows_per_warp + group_in_warp;
  // the same on all lanes: the loops' conditions
  std::uint64_t first_of_warp = warp * rows_per_warp;
  if (loads <= lanes) {
    // At most one load a lane a row: U rows are loaded before any is folded, or a lane would have
    // one small load in flight.
    for (; first_of_warp < m; first_of_warp += U * row_stride, row += U * row_stride) {
      wide_t<T> v[U][K];
#pragma unroll
      for (unsigned u = 0; u < U; ++u)
        if (row + u * row_stride < m && lane < loads)
          load_one<T, Vec>(in + (row + u * row_stride) * n + lane * K, v[u]);
#pragma unroll
      for (unsigned u = 0; u < U; ++u) {
        typename Op::Acc acc = Op::identity();
        if (row + u * row_stride < m && lane < loads)
          acc = fold_pack<Op>(acc, v[u], std::uint64_t{lane} * K);
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

// Long rows, many of them: a block a row. Each byte is read once and never again, and streaming
// loads (evict-first) tell the caches so: on the H200 that read 4096 x 4096 floats 3% faster than
// __ldg.
template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(rows_block)
    rows_by_block(const T* in, std::uint64_t m, std::uint64_t n, typename Op::Out* out) {
  const std::uint64_t loads = ceil_div(n, load_width<T, Vec>);
  // one row, unless m outgrows the grid
  for (std::uint64_t row = blockIdx.x; row < m; row += gridDim.x) {
    typename Op::Acc acc =
        fold_row<Op, T, Vec, true>(Op::identity(), in + row * n, threadIdx.x, rows_block, loads);
    acc = block_reduce<Op, rows_block>(acc);
    if (threadIdx.x == 0) out[row] = Op::finish(acc, n);
    __syncthreads();  // the next row's block_reduce reuses the shared warp totals
  }
}

// Few long rows: `splits` blocks a row, each over a contiguous slice of it. Each block publishes
// its partial, and the row's last block to finish (lesson 12's ticket, one counter a row) combines
// the row's partials in slice order: the same bits every run.
template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(rows_block)
    rows_by_split_blocks(const T* in, std::uint64_t m, std::uint64_t n, unsigned splits,
                         typename Op::Acc* partials, typename Op::Out* out) {
  constexpr unsigned K = load_width<T, Vec>;
  const std::uint64_t loads = ceil_div(n, K);
  const std::uint64_t per_slice = ceil_div(loads, splits);
  __shared__ bool is_last;
  // the same on the whole block
  for (std::uint64_t item = blockIdx.x; item < m * splits; item += gridDim.x) {
    const std::uint64_t row = item / splits, slice = item % splits;
    const std::uint64_t begin = slice * per_slice,
                        end = begin + per_slice < loads ? begin + per_slice : loads;
    // fold_row's indices count from here: shift them back
    const T* base = in + row * n + begin * K;
    typename Op::Acc acc = Op::identity();
    if (begin < end) {
      acc = fold_row<Op, T, Vec>(acc, base, threadIdx.x, rows_block, end - begin);
      if constexpr (requires { acc.index; })
        // a slice's index -> the row's index
        if (acc.index != ~std::uint64_t{0}) acc.index += begin * K;
    }
    acc = block_reduce<Op, rows_block>(acc);
    if (threadIdx.x == 0) {
      partials[item] = acc;
      __threadfence();  // the partial is in L2 before the ticket says so
      is_last = atomicInc(&rows_tickets[row], splits - 1) == splits - 1;
      // acquire: the reads of the partials below come after the ticket
      if (is_last) __threadfence();
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

RL_NAMESPACE_END
