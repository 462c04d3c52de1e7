#pragma once
// Lesson 20's API: reduce every column of a row-major M x N matrix to one value (N outputs), for
// any operator of lesson 18 on any element type, on either backend. (Lesson 21 reduces the same
// shape, leading dimensions with the kept ones contiguous, with its own kernels: its plan's
// `columns` strategy.)
//
// Two levels, as lesson 19's (row_reduce_api.h); outputs decode with common/host/typed_outputs.h:
//  * typed templates in plan.cuh (the launch plan of column_reduce.cuh's kernel):
//      columns_scratch_bytes<Op, T>(M, N, shape) columns_reduce<Op, T>(const T* in, M, N, typename
//      Op::Out* out, void* scratch, shape, stream)
//  * the run-time table below (columns_kernels.cu fills it once per backend), and run_columns() for
//    host code.
// Contract: as lesson 19's. `in` and `out` are device addresses, `in` element-aligned (16-byte
// loads where every row starts on a 16-byte boundary); out[c] is Op::Out, and argmax/argmin give
// the row index. Scratch needs no initialisation; one call is one launch (deterministic: the
// partials of a column meet in a fixed order). N == 0 launches nothing; M == 0: sum writes 0 per
// column, the other operators are a usage error. One call in flight at a time (global tickets).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/host/device.h"
#include "common/host/matrix_cases.h"
#include "common/host/matrix_main.h"
#include "common/host/plan.h"
#include "common/host/typed.h"
#include "common/host/typed_outputs.h"

namespace rl {

// The kernels on one backend: a matrix lesson's table (common/host/matrix_cases.h), one output a
// column, and the naive version beside it.
struct ColumnsKernels : MatrixKernels {
  // The naive version for the lesson's comparison: one atomicAdd per element into a zeroed
  // out[col]. float32 sum only; nondeterministic (the order of the adds changes from run to run).
  void (*atomic_sum_f32)(const float* in, std::uint64_t m, std::uint64_t n, float* out,
                         const DeviceShape&, void* stream) = nullptr;
};

// CUB's nearest call, a segmented sum over a column-major view (cub_columns.cu).
struct ColumnsCub : CubMatrixSum {};

// The kernels on backend b; nullptr where this build has none (the GPU without CUDA).
const ColumnsKernels* columns_kernels(Backend b);
// nullptr without CUDA.
const ColumnsCub* columns_cub();

// Reduces each column of the m x n matrix of type t at device address `in`, returning n results.
// Throws UsageError for m == 0 with any operator but sum.
std::vector<OpValue> run_columns(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m,
                                 std::uint64_t n);
// The same, returning the n outputs as the kernel left them (reduce_output_bytes each): an output
// it never wrote is still the poison, bytes of 0xFF (the grader names that mistake).
std::vector<unsigned char> run_columns_raw(Device& d, ReduceOp op, DType t, const void* in,
                                           std::uint64_t m, std::uint64_t n);
// The naive atomic version, float32 sum only.
std::vector<OpValue> run_columns_atomic(Device& d, const void* in, std::uint64_t m,
                                        std::uint64_t n);

// Lesson 20's graded cases (common/host/matrix_cases.h), smallest first: tall-skinny (many chunks,
// one tile), short-wide (one chunk, many tiles), square-ish, odd N (scalar loads), every type,
// misaligned and empty matrices. The simulator suite and `20_column_reduce --grade` run them.
std::vector<MatrixCase> columns_graded_cases();

// The cases of the grade's idea check (MatrixLesson::idea_cases): a matrix whose tile takes 39
// chunks, where a finish folded by one row lane makes a chain as long as the chunks are many.
std::vector<MatrixCase> columns_idea_cases();

}  // namespace rl
