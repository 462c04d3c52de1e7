#pragma once
// Which backends' copies of the lessons' code this build compiled, and how code picks one. Lessons
// 17-20 reach their kernels through a table of plain functions (OpsKernels, RowsKernels,
// ColumnsKernels, AxesKernels) that take the operator and the element type as values; the lesson's
// <name>_kernels.cu fills it, and CMake compiles that file once per backend, as it does a plan.cu
// of lessons 01-16: by nvcc for the GPU (where CUDA is found) and by g++ for the simulator
// (reducelab_add_typed_lesson, common/cmake/ReduceLabLesson.cmake). Each copy defines
// compiled_table<Table, this_backend>() (common/launch.h); table_for() picks a backend's copy.
#include "common/host/plan.h"

namespace rl {

// Whether this build compiled the lessons for the GPU: CMake defines RL_HAVE_GPU (1 where a CUDA
// compiler was found, 0 where not) for everything that links reducelab_harness.
inline constexpr bool gpu_backend_built = RL_HAVE_GPU;

// The copy of a lesson's table compiled for backend B, defined at the end of the file that fills
// it.
template <class Table, Backend B>
const Table& compiled_table();

// The GPU's copy of Table, or nullptr where this build has no GPU code (also for the tables of CUB
// calls that lessons compare with, which have no simulator copy).
template <class Table>
const Table* gpu_table() {
  if constexpr (gpu_backend_built)
    return &compiled_table<Table, Backend::gpu>();
  else
    return nullptr;
}

// Backend b's copy of Table; nullptr where this build has none (the GPU without CUDA).
template <class Table>
const Table* table_for(Backend b) {
  return b == Backend::sim ? &compiled_table<Table, Backend::sim>() : gpu_table<Table>();
}

}  // namespace rl
