// Lesson 15's executable: every column of M x N matrices reduced, verified column by column against
// the CPU reference, timed against the naive atomic version, CUB's segmented reduce over a
// column-major view, and (with --baseline) torch.sum(dim=0). --grade grades the kernel this build
// was made with (column_reduce.cuh, or the exercise or a submission).
#include "common/host/harness.h"
#include "common/host/matrix_main.h"
#include "lessons/15_column_reduce/column_reduce_api.h"

int main(int argc, char** argv) {
  using namespace rl;
  MatrixLesson lesson;
  lesson.program = "15_column_reduce";
  lesson.about = "Lesson 15: reduce each column of a row-major M x N matrix (coalesced rows, chunk partials, a fixed-order finish)";
  lesson.axis = Axis::columns;
  lesson.kernels = [](Backend b) -> std::optional<MatrixKernels> {
    const ColumnsBackend* t = columns_backend(b);
    if (!t) return std::nullopt;
    return MatrixKernels{t->scratch_bytes, t->reduce, t->depth, t->plan};
  };
  lesson.extra = MatrixExtra{"naive: atomicAdd an element", false,
                             [](Backend b, const float* in, std::uint64_t m, std::uint64_t n, float* out, void* stream) {
                               columns_backend(b)->atomic_sum_f32(in, m, n, out, DeviceShape{}, stream);
                             }};
  lesson.kernel_source = RL_COLUMNS_KERNEL_SOURCE;
  lesson.run_raw = run_columns_raw;
  lesson.graded_cases = columns_graded_cases;
#if RL_COLUMNS_HAVE_GPU
  lesson.cub = &cub_columns_table();
#endif
  return guarded([&] { return matrix_main(argc, argv, lesson); });
}
