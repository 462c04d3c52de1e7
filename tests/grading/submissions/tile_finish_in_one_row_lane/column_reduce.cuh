#pragma once
// Lesson 20: reduce each column of a row-major M x N matrix (N outputs). A column's elements are N
// apart in memory, so "a thread a column, walking down it" would read one float per 128-byte line.
// Instead consecutive threads own consecutive columns (a 16-byte pack of them each), so a warp
// reads whole rows, and the rows are cut into chunks handed to different blocks:
//   block (tile, chunk) folds rows of its chunk for the columns of its tile -> one partial a
//   column; the last block of a tile to finish combines that tile's chunk partials, in chunk order.
// Operators and accumulators are lesson 18's; the launch and ticket idea is lesson 12's. The
// kernels only: the plan (tiles, chunks) and the launches are plan.cuh's.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/device/block_reduce.cuh"
#include "common/device/ceil_div.cuh"
#include "common/device/pack_load.cuh"
#include "common/device/reduce_ops.cuh"

RL_NAMESPACE_BEGIN

inline constexpr unsigned cols_block = 256;
inline constexpr std::uint64_t cols_ticket_capacity = 8192;  // tiles of a split plan, at most
// a thread's loads issued before any is folded
inline constexpr unsigned cols_loads_in_flight = 4;

// One ticket counter per column tile: zero at load time, wrapped back to zero by atomicInc.
[[maybe_unused]] static __device__ unsigned int cols_tickets[cols_ticket_capacity];

// The block's row lanes (threads with the same column, one row apart) combine into row lane 0 by a
// fixed tree in shared memory: the same bits every run. Every thread calls it.
template <class Op, unsigned K>
__device__ __forceinline__ void combine_row_lanes(typename Op::Acc (&acc)[K],
                                                  typename Op::Acc* shared, unsigned col_threads) {
  const unsigned row_lanes = cols_block / col_threads;
  if (row_lanes == 1) return;
#pragma unroll
  for (unsigned j = 0; j < K; ++j) shared[threadIdx.x * K + j] = acc[j];
  __syncthreads();
  const unsigned lane = threadIdx.x / col_threads;
  for (unsigned half = row_lanes / 2; half > 0; half /= 2) {
    if (lane < half) {
      // row lane `lane` absorbs row lane `lane + half`, same columns
#pragma unroll
      for (unsigned j = 0; j < K; ++j) {
        acc[j] = Op::combine(acc[j], shared[(threadIdx.x + half * col_threads) * K + j]);
        shared[threadIdx.x * K + j] = acc[j];
      }
    }
    __syncthreads();
  }
}

template <class Op, class T, bool Vec>
__global__ void __launch_bounds__(cols_block)
    columns_by_chunks(const T* in, std::uint64_t m, std::uint64_t n, unsigned col_threads,
                      std::uint64_t chunk_rows, unsigned chunks, typename Op::Acc* partials,
                      typename Op::Out* out) {
  using Acc = typename Op::Acc;
  constexpr unsigned K = load_width<T, Vec>, F = cols_loads_in_flight;
  __shared__ Acc shared[cols_block * K];
  __shared__ bool is_last;
  const unsigned row_lanes = cols_block / col_threads;
  const unsigned c = threadIdx.x % col_threads, lane = threadIdx.x / col_threads;
  const std::uint64_t col_loads = ceil_div(n, K), tiles = ceil_div(col_loads, col_threads);
  // the same on the whole block
  for (std::uint64_t item = blockIdx.x; item < tiles * chunks; item += gridDim.x) {
    // Chunk-major: blocks launched together read neighbouring tiles of the same rows.
    const std::uint64_t chunk = item / tiles, tile = item % tiles;
    const std::uint64_t load = tile * col_threads + c;  // this thread's pack of K columns
    const bool has_columns = load < col_loads;
    const std::uint64_t col = load * K;
    const std::uint64_t first = chunk * chunk_rows,
                        last = first + chunk_rows < m ? first + chunk_rows : m;
    Acc acc[K];
#pragma unroll
    for (unsigned j = 0; j < K; ++j) acc[j] = Op::identity();
    if (has_columns) {
      std::uint64_t r = first + lane;
      for (; r + (F - 1) * row_lanes < last; r += F * row_lanes) {
        wide_t<T> v[F][K];
        // F in flight
#pragma unroll
        for (unsigned f = 0; f < F; ++f) load_one<T, Vec>(in + (r + f * row_lanes) * n + col, v[f]);
#pragma unroll
        for (unsigned f = 0; f < F; ++f)
#pragma unroll
          for (unsigned j = 0; j < K; ++j)
            acc[j] = Op::combine(acc[j], Op::transform(v[f][j], r + f * row_lanes));
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
        // [chunk][column]: coalesced
#pragma unroll
        for (unsigned j = 0; j < K; ++j) partials[chunk * n + col + j] = acc[j];
        __threadfence();  // this thread's partials are in L2 before the ticket below is taken
      }
      __syncthreads();  // every writer has fenced
      if (threadIdx.x == 0) {
        is_last = atomicInc(&cols_tickets[tile], chunks - 1) == chunks - 1;
        // acquire: the reads of the partials below come after the ticket
        if (is_last) __threadfence();
      }
      __syncthreads();
      if (is_last) {
        // The tile's finish in row lane 0 alone: chunks 0, 1, 2, ... in order, so the same bits
        // every run, but one lane walks every chunk while the block's other row lanes wait.
        if (lane == 0 && has_columns) {
#pragma unroll
          for (unsigned j = 0; j < K; ++j) acc[j] = Op::identity();
          for (unsigned k = 0; k < chunks; ++k)
#pragma unroll
            for (unsigned j = 0; j < K; ++j)
              acc[j] = Op::combine(acc[j], load_l2(partials + std::uint64_t{k} * n + col + j));
#pragma unroll
          for (unsigned j = 0; j < K; ++j) out[col + j] = Op::finish(acc[j], m);
        }
      }
    }
    __syncthreads();  // the next item reuses shared and is_last
  }
}

// The naive version: a thread an element, added into its column's total. Correct for a float sum
// only, slower (every add to one column serialises at one L2 address) and nondeterministic (the
// order of the adds, hence the rounding, changes from run to run). A template (for float only) so
// that every translation unit including this header may define it.
template <class T>
__global__ void columns_atomic_sum(const T* in, std::uint64_t m, std::uint64_t n, T* out) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m * n;
       i += stride)
    atomicAdd(&out[i % n], in[i]);
}

RL_NAMESPACE_END
