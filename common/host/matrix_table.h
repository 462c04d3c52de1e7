#pragma once
// A matrix lesson's kernel table (common/host/matrix_cases.h: MatrixKernels) filled from its typed
// templates through the one (operator, type) switch (type_dispatch.h). Included by the lesson's
// <name>_kernels.cu, which CMake compiles once per backend (common/host/backend_copies.h).
#include <cstdint>
#include <string>
#include <string_view>

#include "common/host/matrix_cases.h"
#include "common/host/type_dispatch.h"
#include "common/host/typed.h"
#include "common/launch.h"

RL_NAMESPACE_BEGIN

// A matrix lesson's four typed templates as run-time functions of (operator, type): the entries of
// its MatrixKernels (lesson 19's RowsKernels, lesson 20's ColumnsKernels). K names the templates:
//   K::scratch_bytes<Op, T>(m, n, shape), K::reduce<Op, T>(in, m, n, out, scratch, shape, stream),
//   K::depth<Op, T>(m, n, shape), K::plan<T>(m, n, shape).
template <class K>
struct TypedMatrix {
  static std::size_t scratch_bytes(ReduceOp op, DType t, std::uint64_t m, std::uint64_t n,
                                   const DeviceShape& s) {
    std::size_t bytes = 0;
    for_op_and_type(op, t, [&](auto o, auto e) {
      bytes = K::template scratch_bytes<typename decltype(o)::type, typename decltype(e)::type>(
          m, n, s);
    });
    return bytes;
  }
  static void reduce(ReduceOp op, DType t, const void* in, std::uint64_t m, std::uint64_t n,
                     void* scratch, void* out, const DeviceShape& s, void* stream) {
    for_op_and_type(op, t, [&](auto o, auto e) {
      using Op = typename decltype(o)::type;
      using T = typename decltype(e)::type;
      K::template reduce<Op, T>(static_cast<const T*>(in), m, n,
                                static_cast<typename Op::Out*>(out), scratch, s, stream);
    });
  }
  static std::uint64_t depth(ReduceOp op, DType t, std::uint64_t m, std::uint64_t n,
                             const DeviceShape& s) {
    std::uint64_t d = 0;
    for_op_and_type(op, t, [&](auto o, auto e) {
      d = K::template depth<typename decltype(o)::type, typename decltype(e)::type>(m, n, s);
    });
    return d;
  }
  // The templates with reduce_ops.cuh's Depth operator on float32 (MatrixKernels::measure_depth).
  static std::size_t depth_scratch_bytes(std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
    return K::template scratch_bytes<Depth<float>, float>(m, n, s);
  }
  static void measure_depth(const void* in, std::uint64_t m, std::uint64_t n, void* scratch,
                            void* out, const DeviceShape& s, void* stream) {
    K::template reduce<Depth<float>, float>(static_cast<const float*>(in), m, n,
                                            static_cast<std::uint32_t*>(out), scratch, s, stream);
  }
  static std::string plan(ReduceOp op, DType t, std::uint64_t m, std::uint64_t n,
                          const DeviceShape& s) {
    std::string text;
    for_op_and_type(
        op, t, [&](auto, auto e) { text = K::template plan<typename decltype(e)::type>(m, n, s); });
    return text;
  }
};

// The copy of a matrix lesson's table for the backend this file is compiled for, made once: the
// MatrixKernels part from K's templates and `source` (the kernel file, common/kernel_source.h),
// then the lesson's own entries (lesson 20's atomic sum).
template <class Table, class K, class... Own>
const Table& matrix_kernels_table(std::string_view source, Own... own) {
  using D = TypedMatrix<K>;
  static const Table table{{this_backend, D::scratch_bytes, D::reduce, D::depth, D::plan, source,
                            D::depth_scratch_bytes, D::measure_depth},
                           own...};
  return table;
}

RL_NAMESPACE_END
