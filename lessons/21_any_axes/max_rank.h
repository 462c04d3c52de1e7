#pragma once
// The most axes a lesson-20 tensor may have: the plan (axes_plan.h) refuses more, and the kernels
// (any_axes.cuh) size their fixed arrays by it. A header of its own, so that the kernels need none
// of the plan's host code.
namespace rl {

inline constexpr unsigned max_rank = 8;

}  // namespace rl
