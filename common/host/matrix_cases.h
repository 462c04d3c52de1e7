#pragma once
// The graded cases of the matrix lessons (14: rows, 15: columns): what a case is, its input, the CPU
// reference of each output, and the one check that the simulator suites (tests/lessons/
// test_rows_sim.cpp, test_columns_sim.cpp) and the student grader (`14_row_reduce --grade`,
// `15_column_reduce --grade`) both run. Each lesson's own list is in its API (rows_graded_cases(),
// columns_graded_cases()).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/host/device.h"
#include "common/host/typed.h"

namespace rl {

enum class Axis { rows, columns };

struct MatrixCase {
  std::uint64_t m = 0, n = 0;  // M x N, row-major
  DType type = DType::f32;
  std::uint64_t seed = 1;
  unsigned offset = 0;         // elements past a 16-byte boundary (1: every row misaligned, scalar loads)
  std::vector<ReduceOp> ops;   // the operators this case is run with
};

std::vector<ReduceOp> all_op_list();
// Aligned cases first, each group sorted by M x N, stably: the grader's first failure is then the
// smallest aligned case that fails.
std::vector<MatrixCase> smallest_first(std::vector<MatrixCase> cases);

// The reference of output i (row i, or column i) of an m x n matrix of type t on the host.
OpReference matrix_reference(Axis axis, ReduceOp op, DType t, const std::byte* data, std::uint64_t m, std::uint64_t n,
                             std::uint64_t i, std::uint64_t depth, std::vector<std::byte>& gather);

// "argmax of float16, 33x7 rows, seed 245" (", 1 element past 16 bytes" where misaligned).
std::string describe(Axis axis, const MatrixCase& c, ReduceOp op);

// Seeded values; along each reduced line (a row, or a column) the largest value sits at three
// places, two of them neighbours, and the smallest likewise: argmax must return the first.
std::vector<std::byte> matrix_input(Axis axis, DType t, std::uint64_t m, std::uint64_t n, std::uint64_t seed);

// A matrix lesson's entry points as a case needs them: the raw run (run_rows_raw, run_columns_raw)
// and its backend's depth (for the tolerance) and plan (named in a failure).
using MatrixRawRun = std::vector<unsigned char> (*)(Device&, ReduceOp, DType, const void* in, std::uint64_t m,
                                                    std::uint64_t n);
struct MatrixEntries {
  MatrixRawRun run_raw = nullptr;
  std::function<std::uint64_t(ReduceOp, DType, std::uint64_t, std::uint64_t, const DeviceShape&)> depth;
  std::function<std::string(ReduceOp, DType, std::uint64_t, std::uint64_t, const DeviceShape&)> plan;
};

// Runs case c with operator op on d and checks every output against the CPU reference. Returns why it
// fails, in one line (the first wrong output, how many are wrong, the plan), or nullopt when every
// output is right; `bytes` (when given) receives the outputs as the kernel wrote them.
std::optional<std::string> matrix_case_failure(Device& d, Axis axis, const MatrixEntries& e, const MatrixCase& c,
                                               ReduceOp op, std::vector<unsigned char>* bytes = nullptr);

}  // namespace rl
