#pragma once
// A matrix lesson's kernel table (lesson 14's RowsBackend, lesson 15's ColumnsBackend) built from its
// typed templates through the one (operator, type) switch (type_dispatch.h). Included by the
// translation units that compile the lesson's kernels, once per backend.
#include <cstdint>
#include <string>

#include "common/host/device.h"
#include "common/host/type_dispatch.h"
#include "common/host/typed.h"

RL_NAMESPACE_BEGIN

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

RL_NAMESPACE_END
