#pragma once
// Lesson 15's table: run-time (operator, type) to the kernel templates; included once by each
// backend's translation unit (columns_sim.cpp for g++, columns_gpu.cu for nvcc). The kernel header is
// RL_COLUMNS_KERNEL: the solution, or in a student build the exercise or a submission (CMakeLists.txt).
#ifndef RL_COLUMNS_KERNEL
#define RL_COLUMNS_KERNEL "lessons/15_column_reduce/column_reduce.cuh"
#endif
#include RL_COLUMNS_KERNEL
#include "common/host/matrix_table.h"
#include "lessons/15_column_reduce/column_reduce_api.h"

RL_NAMESPACE_BEGIN

// column_reduce.cuh's four templates, named for TypedMatrix (lesson 14's typed_dispatch.h).
struct ColumnsKernels {
  template <class Op, class T> static constexpr auto scratch_bytes = &columns_scratch_bytes<Op, T>;
  template <class Op, class T> static constexpr auto reduce = &columns_reduce<Op, T>;
  template <class Op, class T> static constexpr auto depth = &columns_depth<Op, T>;
  template <class T> static constexpr auto plan = &columns_plan_text<T>;
};

inline const ColumnsBackend& this_backend_columns(Backend b) {
  return matrix_table<ColumnsBackend, ColumnsKernels>(b, columns_atomic_sum_launch);
}

RL_NAMESPACE_END
