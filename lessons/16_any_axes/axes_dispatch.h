#pragma once
// The one place run-time (operator, type) pairs become lesson 16's template instantiations; included
// once by each backend's translation unit (axes_sim.cpp for g++, axes_gpu.cu for nvcc).
#include <cstring>

#include "common/host/type_dispatch.h"
#include "lessons/16_any_axes/any_axes.cuh"
#include "lessons/16_any_axes/axes_api.h"

RL_NAMESPACE_BEGIN

inline AxesLaunchInfo info_of(const AxesLaunch& l) {
  return {l.inner ? "reduce_inner_axes" : "reduce_outer_axes", l.vec, l.inner ? l.group : 0, l.splits, l.partials};
}

inline const AxesBackend& this_backend_axes(Backend b) {
  static const AxesBackend table{
      b,
      [](DType t, const AxesPlan& p, const void* in, const DeviceShape& s) {
        return info_of(plan_launch(p, dtype_bytes(t), in, s));
      },
      [](ReduceOp op, DType t, const AxesPlan& p, const void* in, const DeviceShape& s) {
        std::size_t bytes = 0;
        for_op_and_type(op, t, [&](auto o, auto) {
          bytes = axes_scratch_bytes<typename decltype(o)::type>(plan_launch(p, dtype_bytes(t), in, s), p);
        });
        return bytes;
      },
      [](ReduceOp op, DType t) {
        std::size_t bytes = 0;
        for_op_and_type(op, t, [&](auto o, auto) { bytes = sizeof(typename decltype(o)::type::Out); });
        return bytes;
      },
      [](ReduceOp op, DType t, const void* in, const AxesPlan& p, void* scratch, void* out, const DeviceShape& s,
         void* stream) {
        for_op_and_type(op, t, [&](auto o, auto e) {
          using Op = typename decltype(o)::type;
          using T = typename decltype(e)::type;
          reduce_axes_with<Op, T>(static_cast<const T*>(in), p, plan_launch(p, sizeof(T), in, s), scratch,
                                  static_cast<typename Op::Out*>(out), stream);
        });
      },
      [](ReduceOp op, DType t, const void* bytes) {
        OpValue v;
        for_op_and_type(op, t, [&](auto o, auto) {
          typename decltype(o)::type::Out out;
          std::memcpy(&out, bytes, sizeof(out));
          if constexpr (requires { out.index; }) v = {static_cast<double>(out.value), out.index};
          else v = {static_cast<double>(out), 0};
        });
        return v;
      },
      [](DType t, const AxesPlan& p, const void* in, const DeviceShape& s) {
        return axes_depth(p, plan_launch(p, dtype_bytes(t), in, s), dtype_bytes(t));
      }};
  return table;
}

RL_NAMESPACE_END
