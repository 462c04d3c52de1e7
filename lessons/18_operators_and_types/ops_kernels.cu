// Lesson 18's kernel table: run-time (operator, type) pairs to the instantiations of the kernel
// (operators_and_types.cuh) and of its launch plan (plan.cuh).
// CMake compiles this file twice, by nvcc for the GPU and by g++ for the simulator, and each copy
// defines its backend's table (common/host/backend_copies.h); ops_kernels() picks one.
#include "common/host/backend_copies.h"
#include "common/host/type_dispatch.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "lessons/18_operators_and_types/operators_and_types.cuh"
#include "lessons/18_operators_and_types/ops_api.h"
#include "lessons/18_operators_and_types/plan.cuh"

namespace rl {

template <>
const OpsKernels& compiled_table<OpsKernels, this_backend>() {
  static const OpsKernels table{
      .backend = this_backend,
      .scratch_bytes =
          [](ReduceOp op, DType t, std::uint64_t n, const DeviceShape& s) {
            std::size_t bytes = 0;
            for_op_and_type(op, t, [&](auto o, auto e) {
              bytes =
                  ops_scratch_bytes<typename decltype(o)::type, typename decltype(e)::type>(n, s);
            });
            return bytes;
          },
      .reduce =
          [](ReduceOp op, DType t, const void* in, std::uint64_t n, void* scratch, void* out,
             const DeviceShape& s, void* stream) {
            for_op_and_type(op, t, [&](auto o, auto e) {
              using Op = typename decltype(o)::type;
              using T = typename decltype(e)::type;
              static_assert(sizeof(typename Op::Out) <= ops_out_bytes);
              reduce_with<Op, T>(static_cast<const T*>(in), n, scratch,
                                 static_cast<typename Op::Out*>(out), s, stream);
            });
          },
      .depth =
          [](ReduceOp op, DType t, std::uint64_t n, const DeviceShape& s) {
            std::uint64_t depth = 0;
            for_op_and_type(op, t, [&](auto o, auto e) {
              depth = ops_depth<typename decltype(o)::type, typename decltype(e)::type>(n, s);
            });
            return depth;
          },
      .source = kernel_source,
      .depth_scratch_bytes =
          [](std::uint64_t n, const DeviceShape& s) {
            return ops_scratch_bytes<Depth<float>, float>(n, s);
          },
      .measure_depth =
          [](const void* in, std::uint64_t n, void* scratch, void* out, const DeviceShape& s,
             void* stream) {
            reduce_with<Depth<float>, float>(static_cast<const float*>(in), n, scratch,
                                             static_cast<std::uint32_t*>(out), s, stream);
          }};
  return table;
}

}  // namespace rl
