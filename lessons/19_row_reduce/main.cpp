// Lesson 19's executable: every row of M x N matrices reduced, verified row by row against the CPU
// reference, timed against CUB's segmented reduce and (with --baseline) torch.sum(dim=1). --grade
// grades the kernel this build was made with (row_reduce.cuh, or the exercise or a submission).
// Read in this order:
//   row_reduce.cuh                    the kernels
//   plan.cuh                          which kernel a shape gets, with how many lanes or blocks a row
//   rows_kernels.cu, rows_host.cpp    the table of every operator and type, the graded cases
//   questions.cpp                     the exercise's questions, each answer derived
//   main.cpp                          this file: the shared matrix harness checks and times them
#include "common/host/harness.h"
#include "common/host/matrix_main.h"
#include "lessons/19_row_reduce/questions.h"
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
  lesson.idea_cases = rows_idea_cases();
  lesson.idea =
      "a group's lanes join their partials in log2(lanes) levels of exchanges, every lane at every "
      "level, not one lane taking in the others' partials one by one";
  lesson.cub = rows_cub();
  lesson.questions = threads_a_row::questions();
  return guarded([&] { return matrix_main(argc, argv, lesson); });
}
