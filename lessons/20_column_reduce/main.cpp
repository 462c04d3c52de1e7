// Lesson 20's executable: every column of M x N matrices reduced, verified column by column against
// the CPU reference, timed against the naive atomic version, CUB's segmented reduce over a
// column-major view, and (with --baseline) torch.sum(dim=0). --grade grades the kernel this build
// was made with (column_reduce.cuh, or the exercise or a submission). Read in this order:
//   column_reduce.cuh                    the kernels: the coalesced one and the naive atomic one
//   plan.cuh                             a shape's tiles of columns and chunks of rows
//   columns_kernels.cu, columns_host.cpp the table of every operator and type, the graded cases
//   questions.cpp                        the exercise's questions, each answer derived
//   main.cpp                             this file: the shared matrix harness checks and times them
#include "common/host/harness.h"
#include "common/host/matrix_main.h"
#include "lessons/20_column_reduce/column_reduce_api.h"
#include "lessons/20_column_reduce/questions.h"

int main(int argc, char** argv) {
  using namespace rl;
  MatrixLesson lesson;
  lesson.program = "20_column_reduce";
  lesson.about =
      "Lesson 20: reduce each column of a row-major M x N matrix (coalesced rows, chunk partials, "
      "a fixed-order finish)";
  lesson.axis = Axis::columns;
  lesson.kernels = [](Backend b) -> const MatrixKernels* { return columns_kernels(b); };
  lesson.graded_cases = columns_graded_cases;
  lesson.idea_cases = columns_idea_cases();
  lesson.idea =
      "the tile's last block shares the chunks' partials among its row lanes and joins the lanes "
      "in a tree, as the first pass shares the rows; one lane folding every chunk alone makes a "
      "chain as long as the chunks are many";
  lesson.cub = columns_cub();
  lesson.questions = column_tiles::questions();
  lesson.extra = MatrixExtra{
      "naive: atomicAdd an element", false,
      [](Backend b, const float* in, std::uint64_t m, std::uint64_t n, float* out, void* stream) {
        columns_kernels(b)->atomic_sum_f32(in, m, n, out, DeviceShape{}, stream);
      }};
  return guarded([&] { return matrix_main(argc, argv, lesson); });
}
