#pragma once
// Run-time (operator, element type) -> compile-time (Op, T) for lessons 14-16, and the decoding of
// an output array on the host. Lesson 13's ops_dispatch.h does the same for its own table only;
// including it would instantiate all of lesson 13's kernels in every translation unit.
#include <cstring>

#include "common/host/typed.h"
#include "lessons/13_operators_and_types/reduce_ops.cuh"

namespace rl {
inline namespace RL_BACKEND_NS {

template <class X> struct TypeTag { using type = X; };

// Calls f(TypeTag<Op>{}, TypeTag<T>{}) for the operator and element type named at run time.
template <class F>
void for_op_and_type(ReduceOp op, DType t, F&& f) {
  auto with_type = [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    switch (op) {
      case ReduceOp::sum: return f(TypeTag<Sum<T>>{}, type_tag);
      case ReduceOp::max: return f(TypeTag<Max<T>>{}, type_tag);
      case ReduceOp::min: return f(TypeTag<Min<T>>{}, type_tag);
      case ReduceOp::mean: return f(TypeTag<Mean<T>>{}, type_tag);
      case ReduceOp::variance: return f(TypeTag<Variance<T>>{}, type_tag);
      case ReduceOp::argmax: return f(TypeTag<ArgMax<T>>{}, type_tag);
      case ReduceOp::argmin: return f(TypeTag<ArgMin<T>>{}, type_tag);
    }
  };
  switch (t) {
    case DType::f32: return with_type(TypeTag<float>{});
    case DType::f64: return with_type(TypeTag<double>{});
    case DType::f16: return with_type(TypeTag<__half>{});
    case DType::bf16: return with_type(TypeTag<__nv_bfloat16>{});
    case DType::i32: return with_type(TypeTag<int>{});
  }
}

inline std::size_t output_bytes_of(ReduceOp op, DType t) {
  std::size_t bytes = 0;
  for_op_and_type(op, t, [&](auto o, auto) { bytes = sizeof(typename decltype(o)::type::Out); });
  return bytes;
}

inline OpValue decode_output_of(ReduceOp op, DType t, const void* outputs, std::uint64_t i) {
  OpValue v;
  for_op_and_type(op, t, [&](auto o, auto) {
    typename decltype(o)::type::Out out;
    std::memcpy(&out, static_cast<const unsigned char*>(outputs) + i * sizeof(out), sizeof(out));
    if constexpr (requires { out.index; }) v = {static_cast<double>(out.value), out.index};
    else v = {static_cast<double>(out), 0};
  });
  return v;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
