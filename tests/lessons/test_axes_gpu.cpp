// Lesson 21 on the GPU: the simulator's cases, the benchmark tensor at full size, and agreement of
// the GPU with the simulator (same plan, so the same results to within the tolerance).
#include <random>
#include <string>
#include <utility>

#include "tests/lessons/axes_checks.h"

using namespace rl;
using test::gpu;

namespace {
constexpr DType types[] = {DType::f32, DType::f16, DType::i32};
}  // namespace

TEST_CASE("lesson 21 on the GPU: random axes of random transposed tensors", "[gpu][axes]") {
  std::mt19937_64 rng(61);
  for (int trial = 0; trial < 200; ++trial) {
    const AxesLayout l = random_layout(rng, 8, 1u << 16);
    for (const DType t : all_dtypes)
      for (const ReduceOp op : all_ops)
        test::check_reduction(gpu(), op, t, l, 200 + static_cast<std::uint64_t>(trial));
  }
}

TEST_CASE("lesson 21 on the GPU: the benchmark tensor over its four axis sets", "[gpu][axes]") {
  const std::vector<std::int64_t> shape{64, 128, 64, 128};
  for (const std::vector<int>& axes : {std::vector<int>{0, 2}, {1, 3}, {3}, {0}}) {
    const AxesLayout l{shape, contiguous_strides(shape), axes};
    for (const ReduceOp op : {ReduceOp::sum, ReduceOp::argmax, ReduceOp::variance})
      test::check_reduction(gpu(), op, DType::f32, l, 5);
    test::check_reduction(gpu(), ReduceOp::sum, DType::f16, l, 5, 1);  // misaligned: element loads
  }
}

TEST_CASE("lesson 21 on the GPU: the matrices of lessons 19 and 20", "[gpu][axes]") {
  for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{4096, 4096},
                             {65536, 64},
                             {64, 65536},
                             {1 << 20, 8},
                             {8, 1 << 20}})
    for (const int axis : {0, 1})
      for (const DType t : types)
        test::check_reduction(gpu(), ReduceOp::sum, t, AxesLayout{{m, n}, {n, 1}, {axis}}, 9);
}

TEST_CASE("lesson 21: the GPU and the simulator agree", "[gpu][axes]") {
  auto sim = make_sim_device();
  const std::vector<std::int64_t> shape{4, 16, 4, 32};
  const auto strides = contiguous_strides(shape);
  for (const std::vector<int>& axes : {std::vector<int>{0, 2}, {1, 3}, {3}, {0}}) {
    const AxesPlan plan = plan_axes(shape, strides, axes);
    for (const DType t : types) {
      std::vector<std::byte> host(plan.input_span * dtype_bytes(t));
      fill_typed(host.data(), t, plan.input_span, 17, Distribution::uniform);
      DeviceBuffer on_gpu(gpu(), host.size()), on_sim(*sim, host.size());
      gpu().upload(on_gpu.get(), host.data(), host.size());
      sim->upload(on_sim.get(), host.data(), host.size());
      for (const ReduceOp op : all_ops) {
        const auto g = run_axes(gpu(), op, t, on_gpu.get(), plan),
                   s = run_axes(*sim, op, t, on_sim.get(), plan);
        const std::uint64_t depth =
            axes_kernels(Backend::gpu)->depth(t, plan, on_gpu.get(), gpu().shape());
        const auto refs = axes_reference(op, t, host.data(), plan, shape, strides, axes, depth);
        for (std::uint64_t m = 0; m < plan.outputs; ++m) {
          const std::string what = std::string(to_string(op)) + " " + std::string(to_string(t)) +
                                   " output " + std::to_string(m);
          test::check_agree(what, g[m], s[m], refs[m].tolerance);
        }
      }
    }
  }
}
