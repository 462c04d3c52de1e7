// Lesson 18 on the simulator: every operator on every element type against the CPU reference, at
// sizes around warp, block and pack boundaries, at misaligned addresses, with NaN and infinities.
#include <cmath>
#include <limits>

#include "common/host/cli.h"
#include "tests/lessons/ops_checks.h"

using namespace rl;

using test::sim;

TEST_CASE("lesson 18: every operator and type matches the reference", "[sim][ops]") {
  const std::uint64_t n =
      GENERATE(as<std::uint64_t>{}, 1, 31, 33, 255, 257, 1000, (1u << 16) + 1, 1u << 20);
  for (const DType t : all_dtypes) {
    const auto host = ops_input(t, n, 13 + n);
    for (const ReduceOp op : all_ops) test::check_reduction(sim(), op, t, host, n);
  }
}

TEST_CASE("lesson 18: misaligned inputs read a scalar head and tail", "[sim][ops]") {
  // 20005: several blocks for every type, with a tail; small enough to try every offset quickly.
  const std::uint64_t n = GENERATE(as<std::uint64_t>{}, 1000, 20005);
  for (const DType t : all_dtypes) {
    const auto host = ops_input(t, n, 7 * n);
    for (unsigned offset = 1; offset < 16 / dtype_bytes(t); ++offset)
      for (const ReduceOp op : all_ops) test::check_reduction(sim(), op, t, host, n, offset);
  }
}

TEST_CASE("lesson 18: an empty input sums to 0 and is a usage error for the rest", "[sim][ops]") {
  for (const DType t : all_dtypes) {
    const std::vector<std::byte> none;
    test::OffsetInput in(sim(), t, none, 0);
    CHECK(run_op(sim(), ReduceOp::sum, t, in.at, 0).value == 0.0);
    for (const ReduceOp op : all_ops)
      if (op != ReduceOp::sum) CHECK_THROWS_AS(run_op(sim(), op, t, in.at, 0), UsageError);
  }
}

TEST_CASE("lesson 18: NaN and infinities follow PyTorch's rule", "[sim][ops]") {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN(),
                   inf = std::numeric_limits<double>::infinity();
  const std::uint64_t n = 3000;
  for (const DType t : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
    auto run = [&](ReduceOp op, const std::vector<std::byte>& host) {
      const test::OffsetInput in(sim(), t, host, 0);
      return run_op(sim(), op, t, in.at, n);
    };
    INFO(to_string(t));
    auto with_nan = ops_input(t, n, 5);
    store_element(t, with_nan.data(), 2500, nan);
    store_element(t, with_nan.data(), 700, nan);  // the first NaN
    for (const ReduceOp op :
         {ReduceOp::sum, ReduceOp::mean, ReduceOp::variance, ReduceOp::max, ReduceOp::min})
      CHECK(std::isnan(run(op, with_nan).value));
    CHECK(run(ReduceOp::argmax, with_nan).index == 700);
    CHECK(run(ReduceOp::argmin, with_nan).index == 700);

    auto with_inf = ops_input(t, n, 6);
    store_element(t, with_inf.data(), 1234, inf);
    store_element(t, with_inf.data(), 2345, inf);
    CHECK(run(ReduceOp::sum, with_inf).value == inf);
    CHECK(run(ReduceOp::mean, with_inf).value == inf);
    CHECK(run(ReduceOp::max, with_inf).value == inf);
    CHECK(run(ReduceOp::argmax, with_inf).index == 1234);
    CHECK(std::isnan(run(ReduceOp::variance, with_inf).value));
    CHECK(std::isfinite(run(ReduceOp::min, with_inf).value));
    store_element(t, with_inf.data(), 99, -inf);
    CHECK(std::isnan(run(ReduceOp::sum, with_inf).value));  // inf + -inf
    CHECK(run(ReduceOp::argmin, with_inf).index == 99);

    std::vector<std::byte> all_minus_inf(n * dtype_bytes(t));
    for (std::uint64_t i = 0; i < n; ++i) store_element(t, all_minus_inf.data(), i, -inf);
    CHECK(run(ReduceOp::max, all_minus_inf).value == -inf);
    CHECK(run(ReduceOp::argmax, all_minus_inf).index == 0);  // every element ties: the lowest index
    CHECK(run(ReduceOp::argmin, all_minus_inf).index == 0);

    // The reference encodes the same rule: the kernels are also checked against it with NaN inside.
    for (const ReduceOp op : all_ops) test::check_reduction(sim(), op, t, with_nan, n);
  }
}

TEST_CASE("lesson 18: a constant input has variance 0 and argmax 0", "[sim][ops]") {
  const std::uint64_t n = 5000;
  for (const DType t : all_dtypes) {
    std::vector<std::byte> host(n * dtype_bytes(t));
    for (std::uint64_t i = 0; i < n; ++i) store_element(t, host.data(), i, 3.0);
    const test::OffsetInput in(sim(), t, host, 0);
    CHECK(run_op(sim(), ReduceOp::variance, t, in.at, n).value == 0.0);
    CHECK(run_op(sim(), ReduceOp::argmax, t, in.at, n).index == 0);
    CHECK(run_op(sim(), ReduceOp::mean, t, in.at, n).value == 3.0);
  }
}

// 16-bit argmax/argmin fold a whole 16-byte load at once and find the element inside the winning
// load only at the end (pack_fold.cuh): the tie and NaN rules must hold inside one load, across one
// thread's loads, and against the scalar head and tail.
TEST_CASE("lesson 18: 16-bit argmax and argmin keep the first tie and the first NaN",
          "[sim][ops]") {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN(),
                   inf = std::numeric_limits<double>::infinity();
  constexpr double x = 2.0;  // beyond every seeded value, which lie in (-1, 1)
  struct Plant {
    std::uint64_t at;
    double value;  // for argmax; argmin plants the negation (NaN stays NaN)
  };
  struct Case {
    const char* what;
    std::vector<Plant> plants;
    std::uint64_t expected;
  };
  // With offset 0 a load holds elements [8k, 8k + 8): q starts one. For this n the plan is 16
  // blocks of 512 threads (the simulator plans as an H100 does), so a thread makes 4 loads, 8 *
  // 8192 elements apart: q + 8 * 8192 is the next load of q's thread, q + 8 * 4096 another
  // thread's.
  const std::uint64_t n = (1u << 18) - 3, q = 8 * 1000;
  const std::vector<Case> cases = {
      {"a tie inside one load", {{q + 5, x}, {q + 2, x}}, q + 2},
      {"every lane of a load ties",
       {{q, x}, {q + 1, x}, {q + 2, x}, {q + 3, x}, {q + 4, x}, {q + 5, x}, {q + 6, x}, {q + 7, x}},
       q},
      {"a tie across loads",
       {{q + 8 * 8192 + 1, x}, {q + 3, x}, {q + 8 * 4096, x}, {q + 8 * 30000 + 7, x}},
       q + 3},
      {"the last lane of a load ties the first of the next", {{q + 8, x}, {q + 7, x}}, q + 7},
      {"NaN beats the extreme in its own load", {{q, x}, {q + 7, nan}}, q + 7},
      {"the first of two NaNs in one load", {{q + 6, nan}, {q + 3, nan}, {q + 1, x}}, q + 3},
      {"the first NaN across loads",
       {{q + 8 * 8192 + 1, nan}, {q + 4, nan}, {q + 8 * 30000, nan}},
       q + 4},
      {"a NaN in a later load than the extreme",
       {{q, x}, {q + 8 * 8192 + 6, nan}},
       q + 8 * 8192 + 6},
      {"a NaN in an earlier load than the extreme", {{q + 8 * 8192 + 1, x}, {q + 1, nan}}, q + 1},
      {"infinities tie",
       {{q + 8 * 33 + 4, inf}, {q + 8 * 33 + 2, inf}, {q + 8 * 4096, inf}},
       q + 8 * 33 + 2},
      {"head, body and tail tie", {{n - 1, x}, {q, x}, {0, x}}, 0},
      {"the tail holds the only NaN", {{q, x}, {n - 2, nan}}, n - 2},
  };
  for (const DType t : {DType::f16, DType::bf16}) {
    // Plain seeded values: ops_input's own planted ties would compete with the cases'.
    std::vector<std::byte> base(n * dtype_bytes(t));
    fill_typed(base.data(), t, n, 99, Distribution::uniform);
    for (const ReduceOp op : {ReduceOp::argmax, ReduceOp::argmin}) {
      const double sign = op == ReduceOp::argmax ? 1.0 : -1.0;
      for (const Case& c : cases) {
        auto host = base;
        for (const Plant& p : c.plants) store_element(t, host.data(), p.at, sign * p.value);
        // Offset 3 moves the load boundaries: the same data then splits into head, loads and tail
        // differently.
        for (const unsigned offset : {0u, 3u}) {
          INFO(to_string(op) << " of " << to_string(t) << ", " << c.what << ", offset " << offset);
          const test::OffsetInput in(sim(), t, host, offset);
          CHECK(run_op(sim(), op, t, in.at, n).index == c.expected);
          test::check_reduction(sim(), op, t, host, n, offset);
        }
      }
    }
  }
}

TEST_CASE("lesson 18: 16-bit argmax and argmin treat -0 and +0 as a tie", "[sim][ops]") {
  const std::uint64_t n = 20000, q = 8 * 100;
  for (const DType t : {DType::f16, DType::bf16})
    for (const ReduceOp op : {ReduceOp::argmax, ReduceOp::argmin}) {
      const double sign = op == ReduceOp::argmax ? 1.0 : -1.0;
      std::vector<std::byte> host(n * dtype_bytes(t));
      // all below (above) zero
      for (std::uint64_t i = 0; i < n; ++i) store_element(t, host.data(), i, -sign);
      store_element(t, host.data(), q + 5, 0.0);
      store_element(t, host.data(), q + 2, -0.0);  // the first zero, whatever its sign
      store_element(t, host.data(), q + 8 * 700, 0.0);
      INFO(to_string(op) << " of " << to_string(t));
      const test::OffsetInput in(sim(), t, host, 0);
      const OpValue got = run_op(sim(), op, t, in.at, n);
      CHECK(got.index == q + 2);
      CHECK(got.value == 0.0);
    }
}

TEST_CASE("lesson 18: the kernel's measured depth lies between log2(n) and the plan's depth",
          "[sim][ops][idea]") {
  // the graded sizes, and the idea check's 2^20
  const std::uint64_t n = GENERATE(1, 31, 33, 255, 257, 1000, 65537, (1u << 18) + 3, 1u << 20);
  test::check_depth(sim(), n);
}
