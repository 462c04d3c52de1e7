// Lesson 19's kernel table: run-time (operator, type) pairs to the template instantiations of
// row_reduce.cuh's kernels and plan.cuh's launch plan. CMake compiles this file twice, by nvcc for
// the GPU and by g++ for the simulator, and each copy defines its backend's table
// (common/host/backend_copies.h); rows_kernels() picks one.
#include "common/host/backend_copies.h"
#include "common/host/matrix_table.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/19_row_reduce/plan.cuh"
#include "lessons/19_row_reduce/row_reduce.cuh"
#include "lessons/19_row_reduce/row_reduce_api.h"

RL_NAMESPACE_BEGIN

// plan.cuh's four templates, named for TypedMatrix (common/host/matrix_table.h).
struct RowsTemplates {
  template <class Op, class T>
  static constexpr auto scratch_bytes = &rows_scratch_bytes<Op, T>;
  template <class Op, class T>
  static constexpr auto reduce = &rows_reduce<Op, T>;
  template <class Op, class T>
  static constexpr auto depth = &rows_depth<Op, T>;
  template <class T>
  static constexpr auto plan = &rows_plan_text<T>;
};

RL_NAMESPACE_END

namespace rl {

template <>
const RowsKernels& compiled_table<RowsKernels, this_backend>() {
  return matrix_kernels_table<RowsKernels, RowsTemplates>(kernel_source);
}

}  // namespace rl
