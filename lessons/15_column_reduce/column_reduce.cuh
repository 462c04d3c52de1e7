#pragma once
// Lesson 15: reduce each column of a row-major M x N matrix (N outputs). A column's elements are N
// apart in memory, so "a thread a column, walking down it" would read one float per 128-byte line.
// Instead consecutive threads own consecutive columns (a 16-byte pack of them each), so a warp reads
// whole rows, and the rows are cut into chunks handed to different blocks:
//   block (tile, chunk) folds rows of its chunk for the columns of its tile -> one partial a column;
//   the last block of a tile to finish combines that tile's chunk partials, in chunk order.
// Operators and accumulators are lesson 13's; the launch and ticket idea is lesson 11's.
#include <algorithm>
#include <cstdint>
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

inline constexpr unsigned cols_block = 256;
inline constexpr std::uint64_t cols_ticket_capacity = 8192;  // tiles of a split plan, at most
inline constexpr std::uint64_t cols_rows_per_thread = 8;    // at least, per chunk: loads worth a block
inline constexpr unsigned cols_loads_in_flight = 4;          // a thread's loads issued before any is folded

// One ticket counter per column tile: zero at load time, wrapped back to zero by atomicInc.
[[maybe_unused]] static __device__ unsigned int cols_tickets[cols_ticket_capacity];

// The block's row lanes (threads with the same column, one row apart) combine into row lane 0 by a
// fixed tree in shared memory: the same bits every run. Every thread calls it.
template <class Op, unsigned K>
__device__ __forceinline__ void combine_row_lanes(typename Op::Acc (&acc)[K], typename Op::Acc* shared,
                                                  unsigned col_threads) {
  const unsigned row_lanes = cols_block / col_threads;
  if (row_lanes == 1) return;
#pragma unroll
  for (unsigned j = 0; j < K; ++j) shared[threadIdx.x * K + j] = acc[j];
  __syncthreads();
  const unsigned lane = threadIdx.x / col_threads;
  for (unsigned half = row_lanes / 2; half > 0; half /= 2) {
    if (lane < half) {
#pragma unroll
      for (unsigned j = 0; j < K; ++j) {  // row lane `lane` absorbs row lane `lane + half`, same columns
        acc[j] = Op::combine(acc[j], shared[(threadIdx.x + half * col_threads) * K + j]);
        shared[threadIdx.x * K + j] = acc[j];
      }
    }
    __syncthreads();
  }
}

template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(cols_block) columns_by_chunks(const T* in, std::uint64_t m, std::uint64_t n,
                                                                unsigned col_threads, std::uint64_t chunk_rows,
                                                                unsigned chunks, typename Op::Acc* partials,
                                                                typename Op::Out* out) {
  using Acc = typename Op::Acc;
  constexpr unsigned K = load_width<T, Vec>, F = cols_loads_in_flight;
  __shared__ Acc shared[cols_block * K];
  __shared__ bool is_last;
  const unsigned row_lanes = cols_block / col_threads;
  const unsigned c = threadIdx.x % col_threads, lane = threadIdx.x / col_threads;
  const std::uint64_t col_loads = ceil_div(n, K), tiles = ceil_div(col_loads, col_threads);
  for (std::uint64_t item = blockIdx.x; item < tiles * chunks; item += gridDim.x) {  // the same on the whole block
    // Chunk-major: blocks launched together read neighbouring tiles of the same rows.
    const std::uint64_t chunk = item / tiles, tile = item % tiles;
    const std::uint64_t load = tile * col_threads + c;  // this thread's pack of K columns
    const bool has_columns = load < col_loads;
    const std::uint64_t col = load * K;
    const std::uint64_t first = chunk * chunk_rows, last = first + chunk_rows < m ? first + chunk_rows : m;
    Acc acc[K];
#pragma unroll
    for (unsigned j = 0; j < K; ++j) acc[j] = Op::identity();
    if (has_columns) {
      std::uint64_t r = first + lane;
      for (; r + (F - 1) * row_lanes < last; r += F * row_lanes) {
        wide_t<T> v[F][K];
#pragma unroll
        for (unsigned f = 0; f < F; ++f) load_one<T, Vec>(in + (r + f * row_lanes) * n + col, v[f]);  // F in flight
#pragma unroll
        for (unsigned f = 0; f < F; ++f)
#pragma unroll
          for (unsigned j = 0; j < K; ++j) acc[j] = Op::combine(acc[j], Op::transform(v[f][j], r + f * row_lanes));
      }
      for (; r < last; r += row_lanes) {
        wide_t<T> v[K];
        load_one<T, Vec>(in + r * n + col, v);
#pragma unroll
        for (unsigned j = 0; j < K; ++j) acc[j] = Op::combine(acc[j], Op::transform(v[j], r));
      }
    }
    combine_row_lanes<Op, K>(acc, shared, col_threads);
    if (chunks == 1) {
      if (lane == 0 && has_columns)
#pragma unroll
        for (unsigned j = 0; j < K; ++j) out[col + j] = Op::finish(acc[j], m);
    } else {
      if (lane == 0 && has_columns) {
#pragma unroll
        for (unsigned j = 0; j < K; ++j) partials[chunk * n + col + j] = acc[j];  // [chunk][column]: coalesced
        __threadfence();  // this thread's partials are in L2 before the ticket below is taken
      }
      __syncthreads();  // every writer has fenced
      if (threadIdx.x == 0) is_last = atomicInc(&cols_tickets[tile], chunks - 1) == chunks - 1;
      __syncthreads();
      if (is_last) {
        // The tile's finish: row lane `lane` folds chunks lane, lane + row_lanes, ... in order, then
        // the same fixed tree as above: the chunk partials always meet in the same order.
#pragma unroll
        for (unsigned j = 0; j < K; ++j) acc[j] = Op::identity();
        if (has_columns) {
          unsigned k = lane;
          for (; k + (F - 1) * row_lanes < chunks; k += F * row_lanes) {
            Acc got[F][K];  // F chunks' partials in flight at once: each is an L2 round trip
#pragma unroll
            for (unsigned f = 0; f < F; ++f)
#pragma unroll
              for (unsigned j = 0; j < K; ++j) got[f][j] = load_l2(partials + std::uint64_t{k + f * row_lanes} * n + col + j);
#pragma unroll
            for (unsigned f = 0; f < F; ++f)
#pragma unroll
              for (unsigned j = 0; j < K; ++j) acc[j] = Op::combine(acc[j], got[f][j]);
          }
          for (; k < chunks; k += row_lanes)
#pragma unroll
            for (unsigned j = 0; j < K; ++j) acc[j] = Op::combine(acc[j], load_l2(partials + std::uint64_t{k} * n + col + j));
        }
        combine_row_lanes<Op, K>(acc, shared, col_threads);
        if (lane == 0 && has_columns)
#pragma unroll
          for (unsigned j = 0; j < K; ++j) out[col + j] = Op::finish(acc[j], m);
      }
    }
    __syncthreads();  // the next item reuses shared and is_last
  }
}

// The naive version: a thread an element, added into its column's total. Correct for a float sum
// only, slower (every add to one column serialises at one L2 address) and nondeterministic (the
// order of the adds, hence the rounding, changes from run to run). A template (for float only) so that
// every translation unit including this header may define it.
template <class T>
__global__ void columns_atomic_sum(const T* in, std::uint64_t m, std::uint64_t n, T* out) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m * n; i += stride)
    atomicAdd(&out[i % n], in[i]);
}

inline void columns_atomic_sum_launch(const float* in, std::uint64_t m, std::uint64_t n, float* out,
                                      const DeviceShape& s, void* stream) {
  if (n == 0) return;
  zero_async(out, n * sizeof(float), stream);  // the adds need zeroed totals
  if (m == 0) return;
  const std::uint64_t resident = std::uint64_t{s.sm_count} * (s.max_threads_per_sm / cols_block);
  const auto grid = static_cast<unsigned>(std::clamp<std::uint64_t>(ceil_div(m * n, cols_block), 1, 4 * resident));
  launch("columns_atomic_sum", columns_atomic_sum<float>, dim3(grid), dim3(cols_block), 0, stream, in, m, n, out);
}

struct ColumnPlan {
  unsigned col_threads = 1;  // threads a row of the tile (each with K columns)
  std::uint64_t tiles = 1;
  std::uint64_t chunk_rows = 1;
  unsigned chunks = 1;
  unsigned grid = 1;
};

template <class T>
ColumnPlan columns_plan(std::uint64_t m, std::uint64_t n, bool vec, const DeviceShape& s) {
  const std::uint64_t k = vec ? pack_size<T> : 1;
  const std::uint64_t col_loads = ceil_div(n, k);
  ColumnPlan p;
  // Half the blocks that fit on the GPU at once, each with at least 8 rows a thread: enough loads in
  // flight, and few enough chunks that their partials cost little next to the input.
  const std::uint64_t target = std::uint64_t{s.sm_count} * (s.max_threads_per_sm / cols_block) / 2;
  p.col_threads = static_cast<unsigned>(std::min<std::uint64_t>(next_pow2(col_loads), cols_block));
  // Too few tiles to fill the GPU means chunks, whose partials the last block of a tile reads alone:
  // narrower tiles (down to a warp's width, still whole 512-byte runs of a row) mean fewer chunks.
  while (p.col_threads > 32 && ceil_div(col_loads, p.col_threads) < target) p.col_threads /= 2;
  const std::uint64_t row_lanes = cols_block / p.col_threads;
  p.tiles = ceil_div(col_loads, p.col_threads);
  std::uint64_t chunks = 1;
  if (p.tiles < target && p.tiles <= cols_ticket_capacity)
    chunks = std::clamp<std::uint64_t>(std::min(ceil_div(target, p.tiles), m / (row_lanes * cols_rows_per_thread)), 1,
                                       1u << 16);
  p.chunk_rows = std::max<std::uint64_t>(1, ceil_div(m, chunks));
  p.chunks = static_cast<unsigned>(std::max<std::uint64_t>(1, ceil_div(m, p.chunk_rows)));
  p.grid = static_cast<unsigned>(std::clamp<std::uint64_t>(p.tiles * p.chunks, 1, std::uint64_t{1} << 30));
  return p;
}

template <class Op, class T>
std::size_t columns_scratch_bytes(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  std::uint64_t most = 0;
  for (const bool vec : {true, false}) {  // the plan depends on the alignment, which only the call knows
    const ColumnPlan p = columns_plan<T>(m, n, vec, s);
    if (p.chunks > 1) most = std::max(most, std::uint64_t{p.chunks} * n * sizeof(typename Op::Acc));
  }
  return most;
}

// Reduces each column of the m x n matrix at device address `in` into out[0, n); see column_reduce_api.h.
template <class Op, class T>
void columns_reduce(const T* in, std::uint64_t m, std::uint64_t n, typename Op::Out* out, void* scratch,
                    const DeviceShape& s, void* stream) {
  if (n == 0) return;
  const bool vec = rows_vectorizable(in, n);  // every row 16-byte aligned (pack_load.cuh), as in lesson 14
  const ColumnPlan p = columns_plan<T>(m, n, vec, s);
  auto* partials = static_cast<typename Op::Acc*>(scratch);
  if (vec)
    launch("columns_by_chunks", columns_by_chunks<Op, T, true>, dim3(p.grid), dim3(cols_block), 0, stream, in, m, n,
           p.col_threads, p.chunk_rows, p.chunks, partials, out);
  else
    launch("columns_by_chunks", columns_by_chunks<Op, T, false>, dim3(p.grid), dim3(cols_block), 0, stream, in, m, n,
           p.col_threads, p.chunk_rows, p.chunks, partials, out);
}

template <class T>
std::string columns_plan_text(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  const ColumnPlan p = columns_plan<T>(m, n, n * sizeof(T) % 16 == 0, s);
  return std::to_string(p.tiles) + (p.tiles == 1 ? " tile x " : " tiles x ") + std::to_string(p.chunks) +
         (p.chunks == 1 ? " chunk of " : " chunks of ") +
         std::to_string(p.chunk_rows) + " rows, " + std::to_string(cols_block / p.col_threads) + " rows a pass";
}

// The longest chain of combines to an output: a thread's rows of a chunk, the row-lane tree, a
// finishing thread's chunks, the tree again.
template <class Op, class T>
std::uint64_t columns_depth(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  std::uint64_t most = 0;
  for (const bool vec : {true, false}) {
    const ColumnPlan p = columns_plan<T>(m, n, vec, s);
    const std::uint64_t row_lanes = cols_block / p.col_threads;
    most = std::max(most, ceil_div(p.chunk_rows, row_lanes) + ceil_div(p.chunks, row_lanes) +
                              2 * summation_depth(row_lanes, 0) + 3);
  }
  return most;
}

RL_NAMESPACE_END
