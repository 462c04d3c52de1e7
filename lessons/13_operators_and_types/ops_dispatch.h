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
#include "lessons/13_operators_and_types/ops_api.h"

namespace rl {
inline namespace RL_BACKEND_NS {

template <class X> struct Tag { using type = X; };

template <class F>
void with_op_and_type(ReduceOp op, DType t, F&& f) {
  auto with_op = [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    switch (op) {
      case ReduceOp::sum: return f(Tag<Sum<T>>{}, type_tag);
      case ReduceOp::max: return f(Tag<Max<T>>{}, type_tag);
      case ReduceOp::min: return f(Tag<Min<T>>{}, type_tag);
      case ReduceOp::mean: return f(Tag<Mean<T>>{}, type_tag);
      case ReduceOp::variance: return f(Tag<Variance<T>>{}, type_tag);
      case ReduceOp::argmax: return f(Tag<ArgMax<T>>{}, type_tag);
      case ReduceOp::argmin: return f(Tag<ArgMin<T>>{}, type_tag);
    }
  };
  switch (t) {
    case DType::f32: return with_op(Tag<float>{});
    case DType::f64: return with_op(Tag<double>{});
    case DType::f16: return with_op(Tag<__half>{});
    case DType::bf16: return with_op(Tag<__nv_bfloat16>{});
    case DType::i32: return with_op(Tag<int>{});
  }
}

inline const OpsBackend& this_backend_ops(Backend b) {
  static const OpsBackend table{
      b,
      [](ReduceOp op, DType t, std::uint64_t n, const DeviceShape& s) {
        std::size_t bytes = 0;
        with_op_and_type(op, t, [&](auto o, auto e) {
          bytes = ops_scratch_bytes<typename decltype(o)::type, typename decltype(e)::type>(n, s);
        });
        return bytes;
      },
      [](ReduceOp op, DType t, const void* in, std::uint64_t n, void* scratch, void* out, const DeviceShape& s,
         void* stream) {
        with_op_and_type(op, t, [&](auto o, auto e) {
          using Op = typename decltype(o)::type;
          using T = typename decltype(e)::type;
          reduce_with<Op, T>(static_cast<const T*>(in), n, scratch, static_cast<typename Op::Out*>(out), s, stream);
        });
      },
      [](ReduceOp op, DType t, const void* bytes) {
        OpValue v;
        with_op_and_type(op, t, [&](auto o, auto) {
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
        with_op_and_type(op, t, [&](auto o, auto e) {
          depth = ops_depth<typename decltype(o)::type, typename decltype(e)::type>(n, s);
        });
        return depth;
      }};
  return table;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
