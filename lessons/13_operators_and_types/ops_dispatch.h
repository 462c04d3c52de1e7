#pragma once
// The one place run-time (operator, type) pairs become template instantiations; included once by
// each backend's translation unit (ops_sim.cpp for g++, ops_gpu.cu for nvcc).
#include <cstring>

// The generic kernel: the solution, or in a student build the exercise (CMakeLists.txt sets RL_OPS_KERNEL).
#if defined(RL_OPS_KERNEL)
#include RL_OPS_KERNEL
#else
#include "lessons/13_operators_and_types/operators_and_types.cuh"
#endif
#include "common/host/type_dispatch.h"
#include "lessons/13_operators_and_types/ops_api.h"

RL_NAMESPACE_BEGIN

inline const OpsBackend& this_backend_ops(Backend b) {
  static const OpsBackend table{
      b,
      [](ReduceOp op, DType t, std::uint64_t n, const DeviceShape& s) {
        std::size_t bytes = 0;
        for_op_and_type(op, t, [&](auto o, auto e) {
          bytes = ops_scratch_bytes<typename decltype(o)::type, typename decltype(e)::type>(n, s);
        });
        return bytes;
      },
      [](ReduceOp op, DType t, const void* in, std::uint64_t n, void* scratch, void* out, const DeviceShape& s,
         void* stream) {
        for_op_and_type(op, t, [&](auto o, auto e) {
          using Op = typename decltype(o)::type;
          using T = typename decltype(e)::type;
          reduce_with<Op, T>(static_cast<const T*>(in), n, scratch, static_cast<typename Op::Out*>(out), s, stream);
        });
      },
      [](ReduceOp op, DType t, const void* bytes) {
        OpValue v;
        for_op_and_type(op, t, [&](auto o, auto) {
          typename decltype(o)::type::Out out;
          static_assert(sizeof(out) <= ops_out_bytes);
          std::memcpy(&out, bytes, sizeof(out));
          if constexpr (requires { out.index; }) v = {static_cast<double>(out.value), out.index};
          else v = {static_cast<double>(out), 0};
        });
        return v;
      },
      [](ReduceOp op, DType t, std::uint64_t n, const DeviceShape& s) {
        std::uint64_t depth = 0;
        for_op_and_type(op, t, [&](auto o, auto e) {
          depth = ops_depth<typename decltype(o)::type, typename decltype(e)::type>(n, s);
        });
        return depth;
      }};
  return table;
}

RL_NAMESPACE_END
