#pragma once
// Lesson 14's table: run-time (operator, type) to the kernel templates; included once by each
// backend's translation unit (rows_sim.cpp for g++, rows_gpu.cu for nvcc).
#include "lessons/14_row_reduce/row_reduce.cuh"
#include "lessons/14_row_reduce/row_reduce_api.h"
#include "lessons/14_row_reduce/typed_dispatch.h"

namespace rl {
inline namespace RL_BACKEND_NS {

inline const RowsBackend& this_backend_rows(Backend b) {
  static const RowsBackend table{
      b,
      [](ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
        std::size_t bytes = 0;
        for_op_and_type(op, t, [&](auto o, auto e) {
          bytes = rows_scratch_bytes<typename decltype(o)::type, typename decltype(e)::type>(m, n, s);
        });
        return bytes;
      },
      [](ReduceOp op, DType t, const void* in, std::uint64_t m, std::uint64_t n, void* scratch, void* out,
         const DeviceShape& s, void* stream) {
        for_op_and_type(op, t, [&](auto o, auto e) {
          using Op = typename decltype(o)::type;
          using T = typename decltype(e)::type;
          rows_reduce<Op, T>(static_cast<const T*>(in), m, n, static_cast<typename Op::Out*>(out), scratch, s, stream);
        });
      },
      [](ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
        std::uint64_t depth = 0;
        for_op_and_type(op, t, [&](auto o, auto e) {
          depth = rows_depth<typename decltype(o)::type, typename decltype(e)::type>(m, n, s);
        });
        return depth;
      },
      [](ReduceOp op, DType t, std::uint64_t m, std::uint64_t n, const DeviceShape& s) {
        std::string text;
        for_op_and_type(op, t, [&](auto, auto e) { text = rows_plan_text<typename decltype(e)::type>(m, n, s); });
        return text;
      }};
  return table;
}

}  // namespace RL_BACKEND_NS
}  // namespace rl
