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
  // Outermost first. A broadcast axis (stride 0) walks no memory, so nothing is gained by giving it
  // the lanes: it goes outermost. Stable, so equal strides keep the caller's order.
  auto key = [](const MergedAxis& a) { return a.stride == 0 ? ~std::uint64_t{0} : a.stride; };
  std::stable_sort(live.begin(), live.end(),
                   [&](const MergedAxis& a, const MergedAxis& b) { return key(a) > key(b); });
  // Two neighbours fold into one axis when one step of the outer is a whole run of the inner, in
  // the input, in the output and in the reduced numbering alike: then one counter walks both.
  for (const MergedAxis& b : live) {
    if (!plan.axes.empty()) {
      MergedAxis& a = plan.axes.back();
      if (a.reduced == b.reduced && a.stride == b.size * b.stride &&
          a.out_stride == b.size * b.out_stride && a.index_stride == b.size * b.index_stride) {
        a = {a.size * b.size, b.stride, b.out_stride, b.index_stride, b.reduced};
        continue;
      }
    }
    plan.axes.push_back(b);
  }

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
