#pragma once
// Run-time (operator, element type) -> compile-time (Op, T): the one switch every typed table of
// lessons 18-21 goes through (their kernels, their CUB counterparts). It instantiates nothing by
// itself: each caller's lambda decides which templates a translation unit compiles.
#include "common/device/reduce_ops.cuh"
#include "common/host/typed.h"

RL_NAMESPACE_BEGIN

template <class X>
struct TypeTag {
  using type = X;
};

// Calls f(TypeTag<T>{}) for the element type named at run time.
template <class F>
void for_type(DType t, F&& f) {
  switch (t) {
    case DType::f32:
      return f(TypeTag<float>{});
    case DType::f64:
      return f(TypeTag<double>{});
    case DType::f16:
      return f(TypeTag<__half>{});
    case DType::bf16:
      return f(TypeTag<__nv_bfloat16>{});
    case DType::i32:
      return f(TypeTag<int>{});
  }
}

// Calls f(TypeTag<Op>{}, TypeTag<T>{}) for the operator and element type named at run time.
template <class F>
void for_op_and_type(ReduceOp op, DType t, F&& f) {
  for_type(t, [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    switch (op) {
      case ReduceOp::sum:
        return f(TypeTag<Sum<T>>{}, type_tag);
      case ReduceOp::max:
        return f(TypeTag<Max<T>>{}, type_tag);
      case ReduceOp::min:
        return f(TypeTag<Min<T>>{}, type_tag);
      case ReduceOp::mean:
        return f(TypeTag<Mean<T>>{}, type_tag);
      case ReduceOp::variance:
        return f(TypeTag<Variance<T>>{}, type_tag);
      case ReduceOp::argmax:
        return f(TypeTag<ArgMax<T>>{}, type_tag);
      case ReduceOp::argmin:
        return f(TypeTag<ArgMin<T>>{}, type_tag);
    }
  });
}

RL_NAMESPACE_END
