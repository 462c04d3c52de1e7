// Lesson 18 on the GPU: the simulator's cases plus 2^24+3, misaligned inputs, and agreement of the
// GPU with the simulator (same plan, so the same result to within the tolerance).
#include <string>

#include "tests/lessons/ops_checks.h"

using namespace rl;

using test::gpu;

TEST_CASE("lesson 18 on the GPU: every operator and type matches the reference", "[gpu][ops]") {
  const std::uint64_t n = GENERATE(as<std::uint64_t>{}, 1, 31, 33, 255, 257, 1000, (1u << 16) + 1,
                                   1u << 20, (1u << 24) + 3);
  for (const DType t : all_dtypes) {
    const auto host = ops_input(t, n, 13 + n);
    for (const ReduceOp op : all_ops) test::check_reduction(gpu(), op, t, host, n);
  }
}

TEST_CASE("lesson 18 on the GPU: misaligned inputs", "[gpu][ops]") {
  const std::uint64_t n = GENERATE(as<std::uint64_t>{}, 1000, (1u << 20) + 5);
  for (const DType t : all_dtypes) {
    const auto host = ops_input(t, n, 7 * n);
    for (unsigned offset = 1; offset < 16 / dtype_bytes(t); ++offset)
      for (const ReduceOp op : all_ops) test::check_reduction(gpu(), op, t, host, n, offset);
  }
}

TEST_CASE("lesson 18: the GPU and the simulator agree", "[gpu][ops]") {
  auto sim = make_sim_device();
  const std::uint64_t n = (1u << 16) + 3;
  for (const DType t : all_dtypes) {
    const auto host = ops_input(t, n, 99);
    const test::OffsetInput on_gpu(gpu(), t, host, 0), on_sim(*sim, t, host, 0);
    for (const ReduceOp op : all_ops) {
      const OpValue g = run_op(gpu(), op, t, on_gpu.at, n), s = run_op(*sim, op, t, on_sim.at, n);
      const OpReference ref = typed_reference(
          op, t, host.data(), n, ops_kernels(Backend::gpu)->depth(op, t, n, gpu().shape()));
      test::check_agree(std::string(to_string(op)) + " " + std::string(to_string(t)), g, s,
                        ref.tolerance);
    }
  }
}

TEST_CASE("lesson 18: the kernel's measured depth on the GPU lies between log2(n) and the plan's",
          "[gpu][ops][idea]") {
  // the graded sizes, the idea check's 2^20, and 2^28 (the full persistent grid)
  const std::uint64_t n =
      GENERATE(1, 31, 257, 65537, (1u << 18) + 3, 1u << 20, std::uint64_t{1} << 28);
  test::check_depth(gpu(), n);
}
