#pragma once
// Lesson 18's host API: any operator on any element type, on either backend, behind a table of
// plain functions (the kernels are templates; ops_kernels.cu's table picks the instantiation from
// run-time values, and is compiled once per backend: common/host/backend_copies.h).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/host/device.h"
#include "common/host/plan.h"
#include "common/host/typed.h"

namespace rl {

// room for any operator's result (a value and an index)
inline constexpr std::size_t ops_out_bytes = 32;

// The kernels on one backend. The result is the operator's Op::Out: decode it with decode_output
// (common/host/typed_outputs.h).
struct OpsKernels {
  Backend backend = Backend::sim;
  std::size_t (*scratch_bytes)(ReduceOp, DType, std::uint64_t n, const DeviceShape&) = nullptr;
  // Enqueues the reduction of n elements at device address `in`; the result lands in `out`.
  void (*reduce)(ReduceOp, DType, const void* in, std::uint64_t n, void* scratch, void* out,
                 const DeviceShape&, void* stream) = nullptr;
  // The plan's longest chain of combines (sets the tolerance, see typed.h).
  std::uint64_t (*depth)(ReduceOp, DType, std::uint64_t n, const DeviceShape&) = nullptr;
  // The kernel file this build compiled: the solution, the exercise or a student's submission.
  std::string_view source = {};
  // The kernel with reduce_ops.cuh's Depth operator over float32 input: `out` receives one uint32,
  // the longest chain of combines behind the result, as the kernel itself counted it (the grade
  // holds it to `depth`, the plan's).
  std::size_t (*depth_scratch_bytes)(std::uint64_t n, const DeviceShape&) = nullptr;
  void (*measure_depth)(const void* in, std::uint64_t n, void* scratch, void* out,
                        const DeviceShape&, void* stream) = nullptr;
};

// CUB's counterpart of each operator (GPU only): Sum / Max / Min / ArgMax / ArgMin on the same
// type, mean = Sum, variance = TransformReduce with the same (count, mean, M2) merge.
struct OpsCub {
  std::string (*name)(ReduceOp, DType) = nullptr;
  std::size_t (*scratch_bytes)(ReduceOp, DType, std::uint64_t n) = nullptr;
  void (*reduce)(ReduceOp, DType, const void* in, std::uint64_t n, void* scratch,
                 std::size_t scratch_bytes, void* out, void* stream) = nullptr;
};

// The kernels on backend b; nullptr where this build has none (the GPU without CUDA).
const OpsKernels* ops_kernels(Backend b);
// CUB's counterparts (cub_counterparts.cu); nullptr without CUDA.
const OpsCub* ops_cub();

// Seeded values of type t, with ties planted for argmax and argmin: the largest value at four
// places (two of them neighbours in one 16-byte load, two in other blocks), the smallest likewise.
// The tests and `18_operators_and_types --grade` reduce the same data.
std::vector<std::byte> ops_input(DType t, std::uint64_t n, std::uint64_t seed);

// Reduces n elements of type t at device address `in` (any element-aligned address) and returns the
// result. Throws UsageError for an empty input to anything but sum: a max, mean or variance of
// nothing has no value (PyTorch raises too); the sum of nothing is 0.
OpValue run_op(Device& d, ReduceOp op, DType t, const void* in, std::uint64_t n);

// The kernel's depth over n float32 elements at device address `in` (OpsKernels::measure_depth):
// the longest chain of combines behind its result; 0xFFFFFFFF, the poison, where it wrote nothing.
std::uint32_t run_depth(Device& d, const void* in, std::uint64_t n);

}  // namespace rl
