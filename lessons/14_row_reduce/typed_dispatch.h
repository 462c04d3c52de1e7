#pragma once
// Run-time (operator, element type) -> compile-time (Op, T) for lessons 14-16, the backend table of
// a matrix lesson built from its typed templates, and the decoding of an output array on the host. Lesson 13's ops_dispatch.h does the same for its own table only;
// including it would instantiate all of lesson 13's kernels in every translation unit.
#include <cstdint>
#include <cstring>
#include <string>

#include "common/host/device.h"
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

// A matrix lesson's four typed templates as run-time functions of (operator, type): the entries of
// its backend table (lesson 14's RowsBackend, lesson 15's ColumnsBackend). K names the templates:
//   K::scratch_bytes<Op, T>(m, n, shape), K::reduce<Op, T>(in, m, n, out, scratch, shape, stream),
//   K::depth<Op, T>(m, n, shape), K::plan<T>(m, n, shape).
template <class K>
struct TypedMatrix {
  static std::size_t scratch_bytes(ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
    std::size_t bytes = 0;
    for_op_and_type(op, t, [&](auto o, auto e) {
      bytes = K::template scratch_bytes<typename decltype(o)::type, typename decltype(e)::type>(m, n, s);
    });
    return bytes;
  }
  static void reduce(ReduceOp op, DType t, const void* in, std::uint64_t m, std::uint64_t n, void* scratch, void* out,
                     const DeviceShape& s, void* stream) {
    for_op_and_type(op, t, [&](auto o, auto e) {
      using Op = typename decltype(o)::type;
      using T = typename decltype(e)::type;
      K::template reduce<Op, T>(static_cast<const T*>(in), m, n, static_cast<typename Op::Out*>(out), scratch, s, stream);
    });
  }
  static std::uint64_t depth(ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
    std::uint64_t d = 0;
    for_op_and_type(op, t, [&](auto o, auto e) {
      d = K::template depth<typename decltype(o)::type, typename decltype(e)::type>(m, n, s);
    });
    return d;
  }
  static std::string plan(ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
    std::string text;
    for_op_and_type(op, t, [&](auto, auto e) { text = K::template plan<typename decltype(e)::type>(m, n, s); });
    return text;
  }
};

// Backend b's table of a matrix lesson (RowsBackend, ColumnsBackend), made once: its four typed
// entries from K, then any entries of the lesson's own (lesson 15's atomic sum).
template <class Table, class K, class... Own>
const Table& matrix_table(Backend b, Own... own) {
  using D = TypedMatrix<K>;
  static const Table table{b, D::scratch_bytes, D::reduce, D::depth, D::plan, own...};
  return table;
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
