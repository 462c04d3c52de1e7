#pragma once
// Lesson 19's launch plan: from the matrix's shape, which of row_reduce.cuh's kernels reduces the
// rows, with how many lanes or blocks a row and how many blocks in all; its scratch, its depth (the
// tolerance) and the line --explain prints. rows_kernels.cu includes it after the kernel header,
// and CMake compiles that file twice: by nvcc for the GPU and by g++ for the simulator.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/grid_size.h"
#include "common/host/plan.h"
#include "common/host/reference.h"
#include "common/launch.h"
#include "lessons/19_row_reduce/row_reduce.cuh"

RL_NAMESPACE_BEGIN

// The plan, on the host: which kernel, how many lanes or blocks a row, how many blocks in all. It
// is chosen from the shape in 16-byte packs, so that scratch never depends on the input's
// alignment.
struct RowPlan {
  unsigned lanes = 0;   // > 0: rows_by_groups with this many lanes a row; 0: a block or more a row
  unsigned splits = 1;  // 1: rows_by_block; more: rows_by_split_blocks with this many blocks a row
  unsigned grid = 1;
};

template <class T>
RowPlan rows_plan(std::uint64_t m, std::uint64_t n, bool vec, const DeviceShape& s) {
  const std::uint64_t packs = ceil_div(n * sizeof(T), 16);
  const std::uint64_t loads = vec ? packs : n;
  const std::uint64_t resident_blocks =
      std::uint64_t{s.sm_count} * (s.max_threads_per_sm / rows_block);
  const std::uint64_t resident_warps = resident_blocks * (rows_block / 32);
  RowPlan p;
  if (packs <= 256 || (packs <= 1024 && m >= resident_warps / 2)) {
    // Group rows: up to 8 packs a lane, and enough rows to keep every warp of the GPU busy.
    p.lanes = static_cast<unsigned>(std::min<std::uint64_t>(next_pow2(loads), 32));
    const std::uint64_t rows_per_block = rows_block / p.lanes;
    p.grid = static_cast<unsigned>(
        std::clamp<std::uint64_t>(ceil_div(m, rows_per_block), 1, resident_blocks));
    return p;
  }
  // Few rows: split each across enough blocks to fill the GPU once, but give every thread at
  // least 4 packs (fewer and the block's fixed costs outweigh its loads).
  if (m < resident_blocks && m <= rows_ticket_capacity) {
    const std::uint64_t want = ceil_div(resident_blocks, m);
    const std::uint64_t worth = std::max<std::uint64_t>(1, packs / (std::uint64_t{rows_block} * 4));
    p.splits = static_cast<unsigned>(std::min(want, worth));
  }
  p.grid =
      static_cast<unsigned>(std::clamp<std::uint64_t>(m * p.splits, 1, std::uint64_t{1} << 30));
  return p;
}

template <class Op, class T>
std::size_t rows_scratch_bytes(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
  const RowPlan p = rows_plan<T>(m, n, true, s);
  return p.lanes == 0 && p.splits > 1 ? m * p.splits * sizeof(typename Op::Acc) : 0;
}

// Reduces each row of the m x n matrix at device address `in` into out[0, m); see row_reduce_api.h.
template <class Op, class T>
void rows_reduce(const T* in, std::uint64_t m, std::uint64_t n, typename Op::Out* out,
                 void* scratch, const DeviceShape& s, void* stream) {
  if (m == 0) return;
  const bool vec = rows_vectorizable(in, n);
  const RowPlan p = rows_plan<T>(m, n, vec, s);
  auto* partials = static_cast<typename Op::Acc*>(scratch);
  // One launch, of the kernel the plan picked, with 16-byte loads (Vec) when every row is aligned:
  if (p.lanes > 0) {
    //   rows_by_groups<Op, T, Vec><<<p.grid, rows_block, 0, stream>>>(in, m, n, p.lanes, out);
    if (vec)
      launch("rows_by_groups", rows_by_groups<Op, T, true>, dim3(p.grid), dim3(rows_block), 0,
             stream, in, m, n, p.lanes, out);
    else
      launch("rows_by_groups", rows_by_groups<Op, T, false>, dim3(p.grid), dim3(rows_block), 0,
             stream, in, m, n, p.lanes, out);
  } else if (p.splits == 1) {
    //   rows_by_block<Op, T, Vec><<<p.grid, rows_block, 0, stream>>>(in, m, n, out);
    if (vec)
      launch("rows_by_block", rows_by_block<Op, T, true>, dim3(p.grid), dim3(rows_block), 0, stream,
             in, m, n, out);
    else
      launch("rows_by_block", rows_by_block<Op, T, false>, dim3(p.grid), dim3(rows_block), 0,
             stream, in, m, n, out);
  } else {
    //   rows_by_split_blocks<Op, T, Vec><<<p.grid, rows_block, 0, stream>>>(in, m, n, p.splits,
    //                                                                       partials, out);
    if (vec)
      launch("rows_by_split_blocks", rows_by_split_blocks<Op, T, true>, dim3(p.grid),
             dim3(rows_block), 0, stream, in, m, n, p.splits, partials, out);
    else
      launch("rows_by_split_blocks", rows_by_split_blocks<Op, T, false>, dim3(p.grid),
             dim3(rows_block), 0, stream, in, m, n, p.splits, partials, out);
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
  return ceil_div(ceil_div(n, p.splits), rows_block) + pack_size<T> + 2 +
         2 * summation_depth(rows_block, 0) + ceil_div(p.splits, rows_block);
}

RL_NAMESPACE_END
