#pragma once
// Lesson 21's plan, pure host code: an N-d strided tensor (sizes and strides in elements, rank up
// to
// 8) and a set of axes to reduce become a few merged axes, ordered by stride, and a strategy. Every
// kernel of the lesson reads only this plan, so the plan is where the layout questions are
// answered.
#include <cstdint>
#include <string>
#include <vector>

#include "lessons/21_any_axes/max_rank.h"

namespace rl {

// One axis after merging. Kept axes carry where their index moves the output (out_stride, in output
// elements); reduced axes carry where it moves the reduced element's number (index_stride), which
// is what argmax/argmin report: the element's position in the reduced axes, row-major, in the
// caller's axis order, as PyTorch numbers a flattened dim.
struct MergedAxis {
  std::uint64_t size = 1;
  std::uint64_t stride = 0;        // input elements per step
  std::uint64_t out_stride = 0;    // kept: output elements per step; reduced: 0
  std::uint64_t index_stride = 0;  // reduced: reduced-index per step; kept: 0
  bool reduced = false;
};

enum class AxesStrategy {
  // one reduced axis, innermost and contiguous, at most one kept axis: M x K (lesson 19)
  rows,
  // one kept axis, innermost and contiguous, at most one reduced axis: K x M (lesson 20)
  columns,
  strided_rows,     // innermost axis reduced but the rest does not fold into a matrix
  strided_columns,  // innermost axis kept but the rest does not fold into a matrix
};
const char* to_string(AxesStrategy s);

struct AxesPlan {
  std::vector<MergedAxis> axes;  // outermost (largest stride) first, size-1 axes dropped
  std::uint64_t outputs = 1;     // M: product of the kept sizes (0 when a kept size is 0)
  std::uint64_t reduced = 1;     // K: product of the reduced sizes (0: an empty reduction)
  // the output's shape: the kept sizes, in the caller's order
  std::vector<std::uint64_t> out_shape;
  std::uint64_t input_span = 0;  // elements from the first to one past the last addressed
  AxesStrategy strategy = AxesStrategy::columns;

  // Kept and reduced axes, innermost first (the order the kernels walk them in).
  std::vector<MergedAxis> kept_inner_first() const;
  std::vector<MergedAxis> reduced_inner_first() const;
  // What --explain prints: the merged shape, M x K and the strategy, one line.
  std::string describe() const;
};

// Row-major strides of a contiguous tensor.
std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& sizes);

// The plan. Throws UsageError for: rank 0 or above 8, sizes and strides of different ranks, a
// negative size or stride, an axis outside [0, rank), an axis named twice, a size product beyond
// 2^62. No axes at all is allowed: every output is one element (an identity, or a copy).
AxesPlan plan_axes(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides,
                   const std::vector<int>& axes);

}  // namespace rl
