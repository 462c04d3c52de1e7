#pragma once
// Lesson 14's table: run-time (operator, type) to the kernel templates; included once by each
// backend's translation unit (rows_sim.cpp for g++, rows_gpu.cu for nvcc). The kernel header is
// RL_ROWS_KERNEL: the solution, or in a student build the exercise or a submission (CMakeLists.txt).
#ifndef RL_ROWS_KERNEL
#define RL_ROWS_KERNEL "lessons/14_row_reduce/row_reduce.cuh"
#endif
#include RL_ROWS_KERNEL
#include "lessons/14_row_reduce/row_reduce_api.h"
#include "common/host/matrix_table.h"

RL_NAMESPACE_BEGIN

// row_reduce.cuh's four templates, named for TypedMatrix.
struct RowsKernels {
  template <class Op, class T> static constexpr auto scratch_bytes = &rows_scratch_bytes<Op, T>;
  template <class Op, class T> static constexpr auto reduce = &rows_reduce<Op, T>;
  template <class Op, class T> static constexpr auto depth = &rows_depth<Op, T>;
  template <class T> static constexpr auto plan = &rows_plan_text<T>;
};

inline const RowsBackend& this_backend_rows(Backend b) { return matrix_table<RowsBackend, RowsKernels>(b); }

RL_NAMESPACE_END
