// Lesson 19's executable: every row of M x N matrices reduced, verified row by row against the CPU
// reference, timed against CUB's segmented reduce and (with --baseline) torch.sum(dim=1). --grade
// grades the kernel this build was made with (row_reduce.cuh, or the exercise or a submission).
#include "common/host/harness.h"
#include "common/host/matrix_main.h"
#include "lessons/19_row_reduce/row_reduce_api.h"

int main(int argc, char** argv) {
  using namespace rl;
  MatrixLesson lesson;
  lesson.program = "19_row_reduce";
  lesson.about =
      "Lesson 19: reduce each row of a row-major M x N matrix (a group, a warp, a block or several "
      "blocks a row)";
  lesson.axis = Axis::rows;
  lesson.kernels = [](Backend b) -> const MatrixKernels* { return rows_kernels(b); };
  lesson.graded_cases = rows_graded_cases;
  lesson.cub = rows_cub();
  return guarded([&] { return matrix_main(argc, argv, lesson); });
}
