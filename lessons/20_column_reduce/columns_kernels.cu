// Lesson 20's kernel table: run-time (operator, type) pairs to the template instantiations of
// column_reduce.cuh's kernels and plan.cuh's launch plan, and the naive atomic sum. CMake compiles
// this file twice, by nvcc for the GPU and by g++ for the simulator, and each copy defines its
// backend's table (common/host/backend_copies.h); columns_kernels() picks one.
#include "common/host/backend_copies.h"
#include "common/host/matrix_table.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/20_column_reduce/column_reduce.cuh"
#include "lessons/20_column_reduce/column_reduce_api.h"
#include "lessons/20_column_reduce/plan.cuh"

RL_NAMESPACE_BEGIN

// plan.cuh's four templates, named for TypedMatrix (common/host/matrix_table.h).
struct ColumnsTemplates {
  template <class Op, class T>
  static constexpr auto scratch_bytes = &columns_scratch_bytes<Op, T>;
  template <class Op, class T>
  static constexpr auto reduce = &columns_reduce<Op, T>;
  template <class Op, class T>
  static constexpr auto depth = &columns_depth<Op, T>;
  template <class T>
  static constexpr auto plan = &columns_plan_text<T>;
};

RL_NAMESPACE_END

namespace rl {

template <>
const ColumnsKernels& compiled_table<ColumnsKernels, this_backend>() {
  return matrix_kernels_table<ColumnsKernels, ColumnsTemplates>(kernel_source,
                                                                columns_atomic_sum_launch);
}

}  // namespace rl
