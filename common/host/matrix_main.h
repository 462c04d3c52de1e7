#pragma once
// The executable shared by lessons 19 (rows) and 18 (columns): parse the shapes, operators and
// types, verify every output against the CPU reference, time against CUB and (with --baseline) the
// torch timings, print one table, write JSON (schema reducelab.matrix, common/RESULTS.md). --grade
// grades the lesson's kernel on its graded cases (matrix_cases.h); --hint N prints a hint.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/host/answers.h"
#include "common/host/device.h"
#include "common/host/matrix_cases.h"
#include "common/host/typed.h"

namespace rl {

// CUB's float32 sum over the same matrix (GPU only), the library call the lesson is compared with
// (lesson 19's cub_rows.cu, lesson 20's cub_columns.cu).
struct CubMatrixSum {
  std::string name;
  std::size_t (*scratch_bytes)(std::uint64_t m, std::uint64_t n) = nullptr;
  void (*reduce)(const float* in, std::uint64_t m, std::uint64_t n, void* scratch,
                 std::size_t bytes, float* out, void* stream) = nullptr;
};

// A second float32-sum kernel shown beside the lesson's (lesson 20's atomic one); it zeroes out
// itself.
struct MatrixExtra {
  std::string name;
  bool deterministic = true;
  std::function<void(Backend, const float* in, std::uint64_t m, std::uint64_t n, float* out,
                     void* stream)>
      reduce;
};

struct MatrixLesson {
  std::string program;  // "19_row_reduce"
  std::string about;
  Axis axis = Axis::rows;
  // The lesson's kernels on a backend (rows_kernels, columns_kernels): nullptr where the build has
  // none. --grade runs them on the lesson's graded cases (matrix_cases.h) and names their source.
  const MatrixKernels* (*kernels)(Backend) = nullptr;
  std::vector<MatrixCase> (*graded_cases)() = nullptr;
  // After them, the grade's check of the lesson's idea: these float32 cases run through the
  // kernels' measure_depth, and no output's chain of combines may be longer than the plan's depth
  // (matrix_depth_failure); `idea` says what the lesson does instead.
  std::vector<MatrixCase> idea_cases;
  std::string idea;
  const CubMatrixSum* cub = nullptr;  // nullptr without CUDA
  std::optional<MatrixExtra> extra;
  // The exercise's graded questions (answers.h): `--check-answers FILE` checks them. Empty: the
  // lesson takes no such option.
  std::vector<Question> questions;
};

// "4096x4096", "2^20x8": one shape; zero, overflow and anything else malformed are a UsageError.
struct MatrixShape {
  std::uint64_t m = 0, n = 0;
};
MatrixShape parse_shape(const std::string& text);
// A shape as the READMEs and the exercises' questions write it, 2^20 and above as a power of two
// where it is one ("4096x4096", "4x2^22"); and as a key of an answers file, '^' written as 'p'
// ("4x2p22").
std::string shape_label(const MatrixShape& s);
std::string shape_key(const MatrixShape& s);

int matrix_main(int argc, char** argv, const MatrixLesson& lesson);

}  // namespace rl
