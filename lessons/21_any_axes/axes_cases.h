#pragma once
// Lesson 21's graded cases, one list each for the plan and for the reductions, run by the tests
// (tests/host/test_axes_plan.cpp, tests/lessons/test_axes_sim.cpp) and by the student grader
// (`21_any_axes --grade`), with one check for both.
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/host/device.h"
#include "common/host/typed.h"
#include "lessons/21_any_axes/axes_plan.h"

namespace rl {

// A tensor's sizes and strides (in elements, outermost first) and the axes to reduce.
struct AxesLayout {
  std::vector<std::int64_t> sizes, strides;
  std::vector<int> axes;
};

// "sizes 2x3x4, strides 1,8,2, axes {0}"
std::string describe(const AxesLayout& l);

// A random layout: rank 1..most_rank, sizes from a small set (0 and 1 included), the dimensions
// laid out in memory in a random order (a transposed tensor), sometimes with a gap between rows,
// and a random subset of the axes reduced.
AxesLayout random_layout(std::mt19937_64& rng, unsigned most_rank, std::uint64_t max_elements);

// ---- The plan: layouts whose merged axes and strategy are known. ----

struct PlanCase {
  AxesLayout layout;
  std::string merged;  // merged_text() of the right plan
  AxesStrategy strategy;
  std::string why;  // the rule the case is about, for the failure line
};

// The merged axes as text, outermost first: "64R/1048576 128K/8192" (size, kept or reduced,
// stride).
std::string merged_text(const AxesPlan& p);

// Hand-checked plans, simplest first: merging, stride order, size-1, size-0 and broadcast axes.
std::vector<PlanCase> axes_plan_cases();

// Why plan_axes gets case c wrong, in one line, or nullopt.
std::optional<std::string> plan_case_failure(const PlanCase& c);
// The same in two halves, for the trusted grader: what plan_axes makes of case c (its merged axes
// and strategy, as text), and why such a text is wrong.
std::vector<unsigned char> plan_case_outputs(const PlanCase& c);
std::optional<std::string> plan_outputs_failure(const PlanCase& c,
                                                const std::vector<unsigned char>& got);

// ---- The reductions: layouts reduced by the kernels, every output checked. ----

struct AxesCase {
  AxesLayout layout;
  std::vector<DType> types;
  std::vector<ReduceOp> ops;
  std::uint64_t seed = 1;
  unsigned offset = 0;  // elements past a 16-byte boundary (1: no 16-byte packs)
};

// Rank 8, transposed and broadcast layouts, the benchmark's four layouts at a small size (with and
// without 16-byte packs), random transposed tensors of rank 1-5 (sizes 0 and 1 included), and few
// outputs over long reductions (split, then finished in order).
std::vector<AxesCase> axes_graded_cases();

// "argmax of float16 over sizes 4x16, strides 16,1, axes {1}, seed 7"
std::string describe(const AxesLayout& l, ReduceOp op, DType t, std::uint64_t seed,
                     unsigned offset);

// Reduces the layout's tensor (seeded input, `offset` elements past an aligned address) with op on
// d and checks every output against the CPU reference. Returns why it fails, in one line (the first
// wrong output, how many are wrong, the plan), or nullopt; `bytes` (when given) receives the
// outputs as the kernels wrote them. An empty reduction of an operator with no value must be a
// UsageError.
// The same in two halves, for the trusted grader: the case's outputs as the kernels wrote them
// (none where they refused an empty reduction with a usage error), and why such outputs are wrong
// (the input drawn again here; `backend` and `shape` give the plan's depth).
std::vector<unsigned char> axes_case_outputs(Device& d, const AxesLayout& l, ReduceOp op, DType t,
                                             std::uint64_t seed, unsigned offset);
std::optional<std::string> axes_outputs_failure(Backend backend, const DeviceShape& shape,
                                                const AxesLayout& l, ReduceOp op, DType t,
                                                std::uint64_t seed, unsigned offset,
                                                const std::vector<unsigned char>& raw);
std::optional<std::string> axes_case_failure(Device& d, const AxesLayout& l, ReduceOp op, DType t,
                                             std::uint64_t seed, unsigned offset,
                                             std::vector<unsigned char>* bytes = nullptr);

}  // namespace rl
