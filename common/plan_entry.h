#pragma once
// How a lesson's plan.cu fills its Plan entries (common/host/plan.h): what every plan of this
// translation unit shares (its backend, its kernel file, its trace buffer), and the scratch and
// depth of the two grid shapes that lessons 01-09 and 19 use.
#include <string_view>

#include "common/device/traced.h"
#include "common/grid_size.h"
#include "common/host/plan.h"
#include "common/kernel_source.h"
#include "common/launch.h"
#include "common/occupancy.h"

RL_NAMESPACE_BEGIN
// Internal linkage for all three: each fills in this translation unit's own kernel_source, and a
// program that links several lessons' plans would otherwise keep one lesson's for all of them.
namespace {

// A plan of this translation unit's kernels: `reduce` runs them with NoTrace, `reduce_traced` with
// RecordTrace (null for library code, which records nothing).
Plan lesson_plan(int lesson, std::string_view slug, std::string_view title, ReduceFunction reduce,
                 ReduceFunction reduce_traced = nullptr) {
  Plan p;
  p.lesson = lesson;
  p.slug = slug;
  p.title = title;
  p.backend = this_backend;
  p.reduce = reduce;
  p.reduce_traced = reduce_traced;
  if (reduce_traced) p.attach_trace = attach_trace_buffer;
  p.source = kernel_source;
  return p;
}

// Lessons 01-06: tree passes over ItemsPerThread * block inputs a block (tree_passes).
template <unsigned ItemsPerThread>
Plan tree_plan(int lesson, std::string_view slug, std::string_view title, ReduceFunction reduce,
               ReduceFunction reduce_traced) {
  Plan p = lesson_plan(lesson, slug, title, reduce, reduce_traced);
  p.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_scratch_bytes(n, std::uint64_t{ItemsPerThread} * block);
  };
  p.depth = [](std::uint64_t n, unsigned block, const DeviceShape&) {
    return tree_depth(n, std::uint64_t{ItemsPerThread} * block);
  };
  return p;
}

// Lessons 07-09 and 11: a persistent grid, then one block over its partials (persistent_passes).
// `Resources` is the plan's own: what an SM holds of its untraced kernel at a block size
// (kernel_resources, common/occupancy.h), which the grid is sized from.
template <unsigned ItemsPerThread, auto Resources>
Plan persistent_plan(int lesson, std::string_view slug, std::string_view title,
                     ReduceFunction reduce, ReduceFunction reduce_traced) {
  Plan p = lesson_plan(lesson, slug, title, reduce, reduce_traced);
  p.resources = Resources;
  p.scratch_bytes = [](std::uint64_t n, unsigned block, const DeviceShape& s) {
    return persistent_grid(n, block, ItemsPerThread, Resources(block, s), s) * sizeof(float);
  };
  p.depth = [](std::uint64_t n, unsigned block, const DeviceShape& s) {
    return persistent_depth(
        n, block, persistent_grid(n, block, ItemsPerThread, Resources(block, s), s), block);
  };
  return p;
}

}  // namespace
RL_NAMESPACE_END
