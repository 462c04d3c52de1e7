#pragma once
// The matrix lessons (17: rows, 18: columns) on the host: the shape of their kernel tables, one run
// of either, what a graded case is, its input, the CPU reference of each output, and the one check
// that the simulator suites (tests/lessons/test_rows_sim.cpp, test_columns_sim.cpp) and the student
// grader (`19_row_reduce --grade`, `20_column_reduce --grade`) both run. Each lesson's own list of
// cases is in its API (rows_graded_cases(), columns_graded_cases()).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/host/device.h"
#include "common/host/plan.h"
#include "common/host/typed.h"

namespace rl {

enum class Axis { rows, columns };

// A matrix lesson's kernels on one backend, as plain functions of the operator and the element type
// (common/host/matrix_table.h fills them from the lesson's templates). Lesson 19's RowsKernels is
// this; lesson 20's ColumnsKernels adds its naive atomic version. Shapes are M x N, row-major.
struct MatrixKernels {
  Backend backend = Backend::sim;
  std::size_t (*scratch_bytes)(ReduceOp, DType, std::uint64_t m, std::uint64_t n,
                               const DeviceShape&) = nullptr;
  // Enqueues the reduction of the m x n matrix at `in`; `out` receives one output per row (lesson
  // 18) or column (lesson 20), reduce_output_bytes each (common/host/typed_outputs.h).
  void (*reduce)(ReduceOp, DType, const void* in, std::uint64_t m, std::uint64_t n, void* scratch,
                 void* out, const DeviceShape&, void* stream) = nullptr;
  // The longest chain of combines from one input to an output (sets the tolerance, see typed.h).
  std::uint64_t (*depth)(ReduceOp, DType, std::uint64_t m, std::uint64_t n,
                         const DeviceShape&) = nullptr;
  // The plan in words, for the table: "4 rows a warp (8 lanes each)", "a block a row, 3 blocks a
  // row", ...
  std::string (*plan)(ReduceOp, DType, std::uint64_t m, std::uint64_t n,
                      const DeviceShape&) = nullptr;
  // The kernel file this build compiled: the solution, the exercise or a student's submission.
  std::string_view source = {};
  // The same kernels with reduce_ops.cuh's Depth operator over float32 input: each output (a
  // uint32) is the longest chain of combines that made it, as the kernel itself counted it. The
  // grade holds it to `depth`, the plan's (matrix_depth_failure).
  std::size_t (*depth_scratch_bytes)(std::uint64_t m, std::uint64_t n,
                                     const DeviceShape&) = nullptr;
  void (*measure_depth)(const void* in, std::uint64_t m, std::uint64_t n, void* scratch, void* out,
                        const DeviceShape&, void* stream) = nullptr;
};

// One reduction of the m x n matrix of type t at device address `in` along `axis` (one output per
// row, or per column), returning the outputs as the kernel left them (reduce_output_bytes each): an
// output it never wrote is still the poison, bytes of 0xFF. Throws UsageError for empty rows
// (columns) with any operator but sum. The lessons' run_rows_raw and run_columns_raw.
std::vector<unsigned char> run_matrix_raw(Device& d, Axis axis, const MatrixKernels& k, ReduceOp op,
                                          DType t, const void* in, std::uint64_t m,
                                          std::uint64_t n);

struct MatrixCase {
  std::uint64_t m = 0, n = 0;  // M x N, row-major
  DType type = DType::f32;
  std::uint64_t seed = 1;
  // elements past a 16-byte boundary (1: every row misaligned, scalar loads)
  unsigned offset = 0;
  std::vector<ReduceOp> ops;  // the operators this case is run with
};

std::vector<ReduceOp> all_op_list();
// Aligned cases first, each group sorted by M x N, stably: the grader's first failure is then the
// smallest aligned case that fails.
std::vector<MatrixCase> smallest_first(std::vector<MatrixCase> cases);

// The reference of output i (row i, or column i) of an m x n matrix of type t on the host.
OpReference matrix_reference(Axis axis, ReduceOp op, DType t, const std::byte* data,
                             std::uint64_t m, std::uint64_t n, std::uint64_t i, std::uint64_t depth,
                             std::vector<std::byte>& gather);

// "argmax of float16, 33x7 rows, seed 245" (", 1 element past 16 bytes" where misaligned).
std::string describe(Axis axis, const MatrixCase& c, ReduceOp op);

// Seeded values; along each reduced line (a row, or a column) the largest value sits at three
// places, two of them neighbours, and the smallest likewise: argmax must return the first.
std::vector<std::byte> matrix_input(Axis axis, DType t, std::uint64_t m, std::uint64_t n,
                                    std::uint64_t seed);

// Case c with operator op through kernels k on d: its outputs as the kernel wrote them.
std::vector<unsigned char> matrix_case_outputs(Device& d, Axis axis, const MatrixKernels& k,
                                               const MatrixCase& c, ReduceOp op);
// Why `raw` (case c's outputs) is wrong, in one line, or nullopt: every output against the CPU
// reference of the case's input, drawn again here (the trusted grader's check; `k` gives the
// tolerance's depth and the plan in words, `shape` the device's).
std::optional<std::string> matrix_outputs_failure(Axis axis, const MatrixKernels& k,
                                                  const MatrixCase& c, ReduceOp op,
                                                  const DeviceShape& shape,
                                                  const std::vector<unsigned char>& raw);

// The depth of every output of the float32 m x n matrix case c (its ops unused) as the kernels
// measured it (MatrixKernels::measure_depth), a uint32 each: an output never written is still the
// poison, 0xFFFFFFFF.
std::vector<unsigned char> matrix_depth_outputs(Device& d, Axis axis, const MatrixKernels& k,
                                                const MatrixCase& c);
// Why those depths miss the lesson's idea, in one line beginning with idea_mark (grading.h), or
// nullopt: an output never written, or one longer than the plan's depth (MatrixKernels::depth).
// `idea` ends the line: what the lesson does where the chain is too long.
std::optional<std::string> matrix_depth_failure(Axis axis, const MatrixKernels& k,
                                                const MatrixCase& c, const DeviceShape& shape,
                                                const std::vector<unsigned char>& raw,
                                                std::string_view idea);

// Runs case c with operator op through kernels k on d and checks every output against the CPU
// reference (the two above). Returns why it fails, in one line (the first wrong output, how many are wrong, the
// plan), or nullopt when every output is right; `bytes` (when given) receives the outputs as the
// kernel wrote them.
std::optional<std::string> matrix_case_failure(Device& d, Axis axis, const MatrixKernels& k,
                                               const MatrixCase& c, ReduceOp op,
                                               std::vector<unsigned char>* bytes = nullptr);

}  // namespace rl
