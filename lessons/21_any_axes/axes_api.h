#pragma once
// Lesson 21's host API: any operator of lesson 18, any element type, any axes of a strided tensor,
// on either backend, behind a table of plain functions (like lesson 18's ops_api.h):
// axes_kernels.cu fills it once per backend (common/host/backend_copies.h).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/host/device.h"
#include "common/host/plan.h"
#include "common/host/typed.h"
#include "lessons/21_any_axes/axes_plan.h"

namespace rl {

// What the launch plan decided, for --explain and the tests (the kernels' own AxesLaunch,
// flattened).
struct AxesLaunchInfo {
  std::string kernel;     // "reduce_inner_axes" or "reduce_outer_axes"
  bool packs = false;     // 16-byte loads
  unsigned group = 0;     // lanes per output (inner kernel)
  unsigned splits = 1;    // the reduction split this many ways
  unsigned partials = 1;  // partials per output written for finish_partials (1: none, no finish)
};

// The kernels on one backend. Each output is the operator's Op::Out (reduce_output_bytes each, and
// decode_output reads them: common/host/typed_outputs.h).
struct AxesKernels {
  Backend backend = Backend::sim;
  AxesLaunchInfo (*launch_info)(DType, const AxesPlan&, const void* in,
                                const DeviceShape&) = nullptr;
  std::size_t (*scratch_bytes)(ReduceOp, DType, const AxesPlan&, const void* in,
                               const DeviceShape&) = nullptr;
  // Enqueues the reduction of the tensor at device address `in`; plan.outputs results land in
  // `out`.
  void (*reduce)(ReduceOp, DType, const void* in, const AxesPlan&, void* scratch, void* out,
                 const DeviceShape&, void* stream) = nullptr;
  // The plan's longest chain of combines (sets the tolerance, see typed.h).
  std::uint64_t (*depth)(DType, const AxesPlan&, const void* in, const DeviceShape&) = nullptr;
  // The graded file this build compiled (the plan, axes_plan.cpp): the solution, the exercise or a
  // student's submission.
  std::string_view source = {};
};

// The kernels on backend b; nullptr where this build has none (the GPU without CUDA).
const AxesKernels* axes_kernels(Backend b);

// CUB's nearest call for the same reduction (GPU, sum only): DeviceSegmentedReduce::Sum, reading
// rows through begin/end offsets where the plan is rows, and otherwise through a gather iterator
// that maps segment m, element r to the tensor's offset (the same index arithmetic as ours).
struct AxesCub {
  std::string (*name)(const AxesPlan&) = nullptr;
  std::size_t (*scratch_bytes)(DType, const AxesPlan&) = nullptr;
  void (*reduce)(DType, const void* in, const AxesPlan&, void* scratch, std::size_t scratch_bytes,
                 void* out, void* stream) = nullptr;
  bool (*supports)(ReduceOp, DType) = nullptr;
};
// nullptr without CUDA.
const AxesCub* axes_cub();

// Reduces and returns the plan.outputs results, in output order (row-major over the kept axes).
// Throws UsageError for an empty reduction (K = 0) of anything but sum.
std::vector<OpValue> run_axes(Device& d, ReduceOp op, DType t, const void* in,
                              const AxesPlan& plan);
// The same, returning the plan.outputs outputs as the kernels left them (reduce_output_bytes each):
// an output they never wrote is still the poison, bytes of 0xFF (the grader names that mistake).
std::vector<unsigned char> run_axes_raw(Device& d, ReduceOp op, DType t, const void* in,
                                        const AxesPlan& plan);

// The CPU reference for each output: its reduced elements gathered in reduced-index order, then
// typed_reference (lesson 18's) with the given depth.
std::vector<OpReference> axes_reference(ReduceOp op, DType t, const std::byte* data,
                                        const AxesPlan& plan,
                                        const std::vector<std::int64_t>& sizes,
                                        const std::vector<std::int64_t>& strides,
                                        const std::vector<int>& axes, std::uint64_t depth);

}  // namespace rl
