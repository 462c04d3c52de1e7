#pragma once
// Lesson 20's launch plan: from the matrix's shape, how wide a tile of columns is and into how many
// chunks the rows are cut, for column_reduce.cuh's columns_by_chunks; its scratch, its depth (the
// tolerance) and the line --explain prints; and the naive atomic sum's launch. columns_kernels.cu
// includes it after the kernel header, and CMake compiles that file twice: by nvcc for the GPU and
// by g++ for the simulator.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/grid_size.h"
#include "common/host/plan.h"
#include "common/host/reference.h"
#include "common/launch.h"
#include "lessons/20_column_reduce/column_reduce.cuh"

RL_NAMESPACE_BEGIN

// at least, per chunk: loads worth a block
inline constexpr std::uint64_t cols_rows_per_thread = 8;

inline void columns_atomic_sum_launch(const float* in, std::uint64_t m, std::uint64_t n, float* out,
                                      const DeviceShape& s, void* stream) {
  if (n == 0) return;
  zero_async(out, n * sizeof(float), stream);  // the adds need zeroed totals
  if (m == 0) return;
  // A thread an element, at most four rounds of the GPU's resident blocks:
  //   columns_atomic_sum<float><<<grid, cols_block, 0, stream>>>(in, m, n, out);
  const std::uint64_t resident = std::uint64_t{s.sm_count} * (s.max_threads_per_sm / cols_block);
  const auto grid = static_cast<unsigned>(
      std::clamp<std::uint64_t>(ceil_div(m * n, cols_block), 1, 4 * resident));
  launch("columns_atomic_sum", columns_atomic_sum<float>, dim3(grid), dim3(cols_block), 0, stream,
         in, m, n, out);
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
  // Half the blocks that fit on the GPU at once, each with at least 8 rows a thread: enough loads
  // in flight, and few enough chunks that their partials cost little next to the input.
  const std::uint64_t target = std::uint64_t{s.sm_count} * (s.max_threads_per_sm / cols_block) / 2;
  p.col_threads = static_cast<unsigned>(std::min<std::uint64_t>(next_pow2(col_loads), cols_block));
  // Too few tiles to fill the GPU means chunks, whose partials the last block of a tile reads
  // alone: narrower tiles (down to a warp's width, still whole 512-byte runs of a row) mean fewer
  // chunks.
  while (p.col_threads > 32 && ceil_div(col_loads, p.col_threads) < target) p.col_threads /= 2;
  const std::uint64_t row_lanes = cols_block / p.col_threads;
  p.tiles = ceil_div(col_loads, p.col_threads);
  std::uint64_t chunks = 1;
  if (p.tiles < target && p.tiles <= cols_ticket_capacity)
    chunks = std::clamp<std::uint64_t>(
        std::min(ceil_div(target, p.tiles), m / (row_lanes * cols_rows_per_thread)), 1, 1u << 16);
  p.chunk_rows = std::max<std::uint64_t>(1, ceil_div(m, chunks));
  p.chunks = static_cast<unsigned>(std::max<std::uint64_t>(1, ceil_div(m, p.chunk_rows)));
  p.grid = static_cast<unsigned>(
      std::clamp<std::uint64_t>(p.tiles * p.chunks, 1, std::uint64_t{1} << 30));
  return p;
}

template <class Op, class T>
std::size_t columns_scratch_bytes(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  std::uint64_t most = 0;
  // the plan depends on the alignment, which only the call knows
  for (const bool vec : {true, false}) {
    const ColumnPlan p = columns_plan<T>(m, n, vec, s);
    if (p.chunks > 1) most = std::max(most, std::uint64_t{p.chunks} * n * sizeof(typename Op::Acc));
  }
  return most;
}

// Reduces each column of the m x n matrix at device address `in` into out[0, n); see
// column_reduce_api.h.
template <class Op, class T>
void columns_reduce(const T* in, std::uint64_t m, std::uint64_t n, typename Op::Out* out,
                    void* scratch, const DeviceShape& s, void* stream) {
  if (n == 0) return;
  // every row 16-byte aligned (pack_load.cuh), as in lesson 19
  const bool vec = rows_vectorizable(in, n);
  const ColumnPlan p = columns_plan<T>(m, n, vec, s);
  auto* partials = static_cast<typename Op::Acc*>(scratch);
  // One launch, with 16-byte loads (Vec) when every row is aligned:
  //   columns_by_chunks<Op, T, Vec><<<p.grid, cols_block, 0, stream>>>(in, m, n, p.col_threads,
  //                                                                   p.chunk_rows, p.chunks,
  //                                                                   partials, out);
  if (vec)
    launch("columns_by_chunks", columns_by_chunks<Op, T, true>, dim3(p.grid), dim3(cols_block), 0,
           stream, in, m, n, p.col_threads, p.chunk_rows, p.chunks, partials, out);
  else
    launch("columns_by_chunks", columns_by_chunks<Op, T, false>, dim3(p.grid), dim3(cols_block), 0,
           stream, in, m, n, p.col_threads, p.chunk_rows, p.chunks, partials, out);
}

template <class T>
std::string columns_plan_text(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  const ColumnPlan p = columns_plan<T>(m, n, n * sizeof(T) % 16 == 0, s);
  return std::to_string(p.tiles) + (p.tiles == 1 ? " tile x " : " tiles x ") +
         std::to_string(p.chunks) + (p.chunks == 1 ? " chunk of " : " chunks of ") +
         std::to_string(p.chunk_rows) + " rows, " + std::to_string(cols_block / p.col_threads) +
         " rows a pass";
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
