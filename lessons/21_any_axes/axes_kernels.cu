// Lesson 21's kernel table: run-time (operator, type) pairs to the template instantiations of
// any_axes.cuh's kernels and plan.cuh's launch plan. CMake compiles this file twice, by nvcc for
// the GPU and by g++ for the simulator, and each copy defines its backend's table
// (common/host/backend_copies.h); axes_kernels() picks one.
#include "common/host/backend_copies.h"
#include "common/host/type_dispatch.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/21_any_axes/any_axes.cuh"
#include "lessons/21_any_axes/axes_api.h"
#include "lessons/21_any_axes/plan.cuh"

namespace rl {

template <>
const AxesKernels& compiled_table<AxesKernels, this_backend>() {
  static const AxesKernels table{
      .backend = this_backend,
      .launch_info =
          [](DType t, const AxesPlan& p, const void* in, const DeviceShape& s) {
            const AxesLaunch l = plan_launch(p, dtype_bytes(t), in, s);
            return AxesLaunchInfo{l.inner ? "reduce_inner_axes" : "reduce_outer_axes", l.vec,
                                  l.inner ? l.group : 0, l.splits, l.partials};
          },
      .scratch_bytes =
          [](ReduceOp op, DType t, const AxesPlan& p, const void* in, const DeviceShape& s) {
            std::size_t bytes = 0;
            for_op_and_type(op, t, [&](auto o, auto) {
              bytes = axes_scratch_bytes<typename decltype(o)::type>(
                  plan_launch(p, dtype_bytes(t), in, s), p);
            });
            return bytes;
          },
      .reduce =
          [](ReduceOp op, DType t, const void* in, const AxesPlan& p, void* scratch, void* out,
             const DeviceShape& s, void* stream) {
            for_op_and_type(op, t, [&](auto o, auto e) {
              using Op = typename decltype(o)::type;
              using T = typename decltype(e)::type;
              reduce_axes_with<Op, T>(static_cast<const T*>(in), p,
                                      plan_launch(p, sizeof(T), in, s), scratch,
                                      static_cast<typename Op::Out*>(out), stream);
            });
          },
      .depth =
          [](DType t, const AxesPlan& p, const void* in, const DeviceShape& s) {
            return axes_depth(p, plan_launch(p, dtype_bytes(t), in, s), dtype_bytes(t));
          },
      .source = kernel_source};
  return table;
}

}  // namespace rl
