// Exercise 21: the plan, host code that decides what the kernels walk. Do what the TODO(student) in
// plan_axes asks; grade it with `bash lessons/grade.sh 21`, and when stuck ask
// `build-student/bin/21_any_axes --hint 1` (then 2, 3). The solution is ../axes_plan.cpp; the
// kernels that read the plan are ../any_axes.cuh, launched by ../plan.cuh.
#include "lessons/21_any_axes/axes_plan.h"

#include <algorithm>
#include <sstream>

#include "common/host/cli.h"

namespace rl {

const char* to_string(AxesStrategy s) {
  switch (s) {
    case AxesStrategy::rows:
      return "rows";
    case AxesStrategy::columns:
      return "columns";
    case AxesStrategy::strided_rows:
      return "strided, reduced innermost";
    case AxesStrategy::strided_columns:
      return "strided, kept innermost";
  }
  return "?";
}

std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> strides(sizes.size());
  std::int64_t step = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = step;
    step *= std::max<std::int64_t>(sizes[i], 1);
  }
  return strides;
}

namespace {

constexpr std::uint64_t size_limit = std::uint64_t{1} << 62;

// a * b, or a usage error when it passes the limit (no tensor that large fits anywhere).
std::uint64_t times(std::uint64_t a, std::uint64_t b, const char* what) {
  if (b != 0 && a > size_limit / b) throw UsageError(std::string(what) + " beyond 2^62 elements");
  return a * b;
}

std::vector<MergedAxis> pick(const std::vector<MergedAxis>& axes, bool reduced) {
  std::vector<MergedAxis> out;
  for (auto it = axes.rbegin(); it != axes.rend(); ++it)
    if (it->reduced == reduced) out.push_back(*it);
  return out;
}

}  // namespace

std::vector<MergedAxis> AxesPlan::kept_inner_first() const { return pick(axes, false); }
std::vector<MergedAxis> AxesPlan::reduced_inner_first() const { return pick(axes, true); }

std::string AxesPlan::describe() const {
  std::ostringstream s;
  s << "merged (outermost first):";
  if (axes.empty()) s << " (a single element)";
  for (const MergedAxis& a : axes)
    s << " [" << a.size << (a.reduced ? " reduce" : " keep") << ", stride " << a.stride << "]";
  s << " -> M = " << outputs << " outputs x K = " << reduced << " reduced -> "
    << to_string(strategy);
  return s.str();
}

AxesPlan plan_axes(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides,
                   const std::vector<int>& axes) {
  const std::size_t rank = sizes.size();
  if (rank == 0) throw UsageError("the shape needs at least one dimension");
  if (rank > max_rank)
    throw UsageError("rank " + std::to_string(rank) + " is above the limit of 8");
  if (strides.size() != rank)
    throw UsageError("the strides name " + std::to_string(strides.size()) +
                     " dimensions, the shape " + std::to_string(rank));
  std::vector<bool> reduce(rank, false);
  for (const int a : axes) {
    if (a < 0 || static_cast<std::size_t>(a) >= rank)
      throw UsageError("axis " + std::to_string(a) + " is outside [0, " + std::to_string(rank) +
                       ")");
    if (reduce[static_cast<std::size_t>(a)])
      throw UsageError("axis " + std::to_string(a) + " is named twice");
    reduce[static_cast<std::size_t>(a)] = true;
  }
  for (std::size_t i = 0; i < rank; ++i) {
    if (sizes[i] < 0)
      throw UsageError("size " + std::to_string(sizes[i]) + " of dimension " + std::to_string(i) +
                       " is negative");
    if (strides[i] < 0)
      throw UsageError("stride " + std::to_string(strides[i]) + " of dimension " +
                       std::to_string(i) + " is negative");
  }

  AxesPlan plan;
  // Numbering first, in the caller's order: the output is row-major over the kept axes, and a
  // reduced element's index (argmax) row-major over the reduced axes. Walking from the last axis
  // back gives each its step.
  std::vector<MergedAxis> all(rank);
  std::uint64_t out_step = 1, index_step = 1, span = 0;
  bool any_zero = false;
  for (std::size_t i = rank; i-- > 0;) {
    const auto size = static_cast<std::uint64_t>(sizes[i]);
    all[i] = {size, static_cast<std::uint64_t>(strides[i]), 0, 0, reduce[i]};
    if (reduce[i]) {
      all[i].index_stride = index_step;
      index_step = times(index_step, size, "the reduced axes hold");
    } else {
      all[i].out_stride = out_step;
      out_step = times(out_step, size, "the output holds");
    }
    any_zero = any_zero || size == 0;
    if (size > 0) span += times(size - 1, all[i].stride, "the tensor spans");
    if (span > size_limit) throw UsageError("the tensor spans beyond 2^62 elements");
  }
  for (std::size_t i = 0; i < rank; ++i)
    if (!reduce[i]) plan.out_shape.push_back(all[i].size);
  plan.outputs = out_step;
  plan.reduced = index_step;
  plan.input_span = any_zero ? 0 : span + 1;
  times(plan.outputs, plan.reduced, "the tensor holds");

  // Size-1 axes move nothing; an empty side moves nothing either (no outputs: no work at all; no
  // reduced elements: every output is the operator's value of nothing).
  std::vector<MergedAxis> live;
  for (const MergedAxis& a : all) {
    if (a.size == 1 || plan.outputs == 0 || (a.reduced && plan.reduced == 0)) continue;
    live.push_back(a);
  }
  // TODO(student): order and merge. The kernels walk plan.axes with one counter an axis, the last
  //   axis innermost, and the strategy below is read from that last axis. Fill plan.axes from
  //   `live` so that the axes go outermost first, by stride (a broadcast axis, stride 0, walks no
  //   memory and goes outermost; equal strides keep the caller's order), and so that there are as
  //   few as one counter an axis allows: wherever one counter can walk two neighbours, they are one
  //   axis. A merged axis must walk exactly the input elements, the output positions and the
  //   reduced elements' numbers (argmax's index) that the two walked. Unmerged, the plan is still
  //   right, only slow: every kernel walks whatever axes it is given. Graded (`bash
  //   lessons/grade.sh 21`): first the plan itself, its merged axes (size, kept or reduced, stride)
  //   and strategy, on 24 hand-checked layouts (contiguous tensors of rank 3, 4 and 8 over various
  //   axes, axes named out of order, transposed views, a slice with step 2, a padded row, a
  //   broadcast axis, size-1 and size-0 axes). Then reductions made with your plan, every output
  //   against the CPU reference, every operator (sum, max, min, mean, variance,
  //   argmax, argmin): the rank-8 tensor 2x3x2x1x2x3x2x2 over {1,3,5,7}, none, all and {7,0}
  //   (float32); on float32, float16 and int32, transposed and broadcast views (2x3x4 with strides
  //   1,8,2 over {} and {0}; 3x4 with strides 1,3 over {0,1}; 5x6 with strides 0,1 over {0}), an
  //   empty reduction (3x0x4 over {1}: sum 0, any other operator a usage error) and no outputs
  //   (3x0x4 over {0}); the benchmark's four layouts at 4x16x4x32 over {0,2}, {1,3}, {3} and {0},
  //   from a 16-byte boundary and one element past it; 24 random transposed tensors of rank 1 to 5
  //   (sizes 0 and 1 included, some with gaps) over random axes; and few outputs over long
  //   reductions, split and finished in order (3x6000 over {1}, 6000x3 over {0}, 2x40x3x50 over
  //   {1,3}). Max, min, the indices and int32 sums must be exact, the rest within the rounding
  //   bound of the plan's longest chain of combines. On the simulator the reductions that span up
  //   to 2^15 elements run again with each block's threads in reverse and in shuffled order, and
  //   every output's bits must stay the same.
  plan.axes = live;

  // The innermost axis decides: whoever owns stride 1 gets the coalesced loads. Reduced innermost:
  // a warp's lanes read along the reduction (rows). Kept innermost: neighbouring threads own
  // neighbouring outputs and each walks the reduction on its own (columns).
  const std::size_t kept = plan.kept_inner_first().size(), red = plan.axes.size() - kept;
  if (plan.axes.empty() || !plan.axes.back().reduced) {
    const bool simple =
        kept <= 1 && red <= 1 && (plan.axes.empty() || plan.axes.back().stride == 1);
    plan.strategy = simple ? AxesStrategy::columns : AxesStrategy::strided_columns;
  } else {
    const bool simple = red == 1 && kept <= 1 && plan.axes.back().stride == 1;
    plan.strategy = simple ? AxesStrategy::rows : AxesStrategy::strided_rows;
  }
  return plan;
}

}  // namespace rl
