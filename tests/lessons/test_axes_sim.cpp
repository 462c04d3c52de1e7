// Lesson 16 on the simulator: every operator on float32, float16 and int32, over random axis subsets
// of random transposed tensors of rank 1-5 (sizes 0 and 1 included), and over the benchmark's four
// layouts at a small size, against the CPU reference.
#include <random>

#include "common/host/cli.h"
#include "tests/lessons/axes_checks.h"

using namespace rl;

namespace {
Device& sim() {
  static std::unique_ptr<Device> device = make_sim_device();
  return *device;
}
constexpr DType types[] = {DType::f32, DType::f16, DType::i32};
}  // namespace

TEST_CASE("lesson 16: random axes of random transposed tensors match the reference", "[sim][axes]") {
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 24; ++trial) {
    const test::Layout l = test::random_layout(rng, 5, 3000);
    for (const DType t : types)
      for (const ReduceOp op : all_ops) test::check_axes(sim(), op, t, l, 100 + static_cast<std::uint64_t>(trial));
  }
}

TEST_CASE("lesson 16: the benchmark's four layouts, small, with and without 16-byte packs", "[sim][axes]") {
  const std::vector<std::int64_t> shape{4, 16, 4, 32};
  const auto strides = contiguous_strides(shape);
  for (const std::vector<int>& axes : {std::vector<int>{0, 2}, {1, 3}, {3}, {0}}) {
    const test::Layout l{shape, strides, axes};
    for (const DType t : types)
      for (const ReduceOp op : all_ops)
        for (const unsigned offset : {0u, 1u}) test::check_axes(sim(), op, t, l, 7, offset);
  }
}

TEST_CASE("lesson 16: few outputs and long reductions are split, then finished in order", "[sim][axes]") {
  // Rows and columns with a handful of outputs: the reduction is split across blocks.
  for (const test::Layout& l : {test::Layout{{3, 6000}, {6000, 1}, {1}}, test::Layout{{6000, 3}, {3, 1}, {0}},
                                test::Layout{{2, 40, 3, 50}, {6000, 150, 50, 1}, {1, 3}}}) {
    for (const DType t : types)
      for (const ReduceOp op : all_ops) test::check_axes(sim(), op, t, l, 11);
  }
}

TEST_CASE("lesson 16: rank 8, no axes, all axes", "[sim][axes]") {
  const std::vector<std::int64_t> shape{2, 3, 2, 1, 2, 3, 2, 2};
  const auto strides = contiguous_strides(shape);
  for (const std::vector<int>& axes : {std::vector<int>{1, 3, 5, 7}, {}, {0, 1, 2, 3, 4, 5, 6, 7}, {7, 0}})
    for (const ReduceOp op : all_ops) test::check_axes(sim(), op, DType::f32, test::Layout{shape, strides, axes}, 3);
}

TEST_CASE("lesson 16: an empty reduction sums to 0 and is a usage error for the rest", "[sim][axes]") {
  const AxesPlan plan = plan_axes({3, 0, 4}, {4, 4, 1}, {1});
  DeviceBuffer none(sim(), 16);
  const auto sums = run_axes(sim(), ReduceOp::sum, DType::f32, none.get(), plan);
  REQUIRE(sums.size() == 12);
  for (const OpValue& v : sums) CHECK(v.value == 0.0);
  for (const ReduceOp op : all_ops)
    if (op != ReduceOp::sum) CHECK_THROWS_AS(run_axes(sim(), op, DType::f32, none.get(), plan), UsageError);
  // No outputs at all: nothing to compute, for any operator.
  CHECK(run_axes(sim(), ReduceOp::max, DType::f32, none.get(), plan_axes({3, 0, 4}, {4, 4, 1}, {0})).empty());
}
