#pragma once
// Lesson 19's API: reduce every row of a row-major M x N matrix to one value (M outputs), for any
// operator of lesson 18 on any element type, on either backend. (Lesson 21 reduces the same shape,
// trailing contiguous dimensions, with its own kernels: its plan's `rows` strategy.)
//
// Two levels:
//  * typed templates in plan.cuh (the launch plan of row_reduce.cuh's kernels), for code that
//      already knows Op and T at compile time: rows_scratch_bytes<Op, T>(M, N, shape)
//      rows_reduce<Op, T>(const T* in, M, N, typename Op::Out* out, void* scratch, shape, stream)
//  * the run-time table below (operator and type as values: rows_kernels.cu fills it once per
//    backend), and run_rows() for host code.
// Contract (both levels): `in` and `out` are device addresses; `in` need only be element-aligned
// (16-byte loads are used where every row starts on a 16-byte boundary, scalar loads otherwise);
// out[r] is Op::Out (reduce_output_bytes() each, common/host/typed_outputs.h; argmax/argmin:
// {value, index within the row}); scratch is device memory of at least scratch_bytes (may be null
// when that is 0), needs no initialisation and may be reused by the next call in the same stream;
// one call is one launch. M == 0 launches nothing. N == 0: sum writes 0 per row; the other
// operators are a usage error (run_rows throws UsageError; the raw entry points must not be called
// with it). Calls are stream-ordered; two calls in flight at once on different streams are not
// supported (the split-row plan's per-row tickets are one global array, like lesson 12's counter).
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
// row.
struct RowsKernels : MatrixKernels {};
// CUB's segmented sum over the same rows (cub_rows.cu).
struct RowsCub : CubMatrixSum {};

// The kernels on backend b; nullptr where this build has none (the GPU without CUDA).
const RowsKernels* rows_kernels(Backend b);
// nullptr without CUDA.
const RowsCub* rows_cub();

// Reduces each row of the m x n matrix of type t at device address `in`, returning m results.
// Throws UsageError for n == 0 with any operator but sum.
std::vector<OpValue> run_rows(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t m,
                              std::uint64_t n);
// The same, returning the m outputs as the kernel left them (reduce_output_bytes each): an output
// it never wrote is still the poison, bytes of 0xFF (the grader names that mistake).
std::vector<unsigned char> run_rows_raw(Device& d, ReduceOp op, DType t, const void* in,
                                        std::uint64_t m, std::uint64_t n);

// Lesson 19's graded cases (common/host/matrix_cases.h), smallest first: shapes that reach every
// plan (groups of 1 to 32 lanes, a warp, a block and several blocks a row), odd row lengths (scalar
// loads), every type, misaligned matrices and empty ones. The simulator suite and `19_row_reduce
// --grade` run them.
std::vector<MatrixCase> rows_graded_cases();

// The cases of the grade's idea check (MatrixLesson::idea_cases): rows of 16 and of 32 loads, whose
// plan gives a row a group of 16 lanes and a warp, where a group folded by one of its lanes makes a
// chain of 15 or 31 combines, against log2(lanes) levels of a tree.
std::vector<MatrixCase> rows_idea_cases();

}  // namespace rl
