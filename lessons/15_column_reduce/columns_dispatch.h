#pragma once
// Lesson 15's table: run-time (operator, type) to the kernel templates; included once by each
// backend's translation unit (columns_sim.cpp for g++, columns_gpu.cu for nvcc).
#include "lessons/14_row_reduce/typed_dispatch.h"
#include "lessons/15_column_reduce/column_reduce.cuh"
#include "lessons/15_column_reduce/column_reduce_api.h"

namespace rl {
inline namespace RL_BACKEND_NS {

inline const ColumnsBackend& this_backend_columns(Backend b) {
  static const ColumnsBackend table{
      b,
      [](ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
        std::size_t bytes = 0;
        for_op_and_type(op, t, [&](auto o, auto e) {
          bytes = columns_scratch_bytes<typename decltype(o)::type, typename decltype(e)::type>(m, n, s);
        });
        return bytes;
      },
      [](ReduceOp op, DType t, const void* in, std::uint64_t m, std::uint64_t n, void* scratch, void* out,
         const DeviceShape& s, void* stream) {
        for_op_and_type(op, t, [&](auto o, auto e) {
          using Op = typename decltype(o)::type;
          using T = typename decltype(e)::type;
          columns_reduce<Op, T>(static_cast<const T*>(in), m, n, static_cast<typename Op::Out*>(out), scratch, s, stream);
        });
      },
      [](ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
        std::uint64_t depth = 0;
        for_op_and_type(op, t, [&](auto o, auto e) {
          depth = columns_depth<typename decltype(o)::type, typename decltype(e)::type>(m, n, s);
        });
        return depth;
      },
      [](ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
        std::string text;
        for_op_and_type(op, t, [&](auto, auto e) { text = columns_plan_text<typename decltype(e)::type>(m, n, s); });
        return text;
      },
      [](const float* in, std::uint64_t m, std::uint64_t n, float* out, const DeviceShape& s, void* stream) {
        columns_atomic_sum_launch(in, m, n, out, s, stream);
      }};
  return table;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
