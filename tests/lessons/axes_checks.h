#pragma once
// Lesson 16's checks, shared by the simulator and GPU suites: a typed tensor laid out by the given
// strides, reduced over the given axes through the host API, every output compared with the CPU
// reference (lesson 13's typed_reference over that output's gathered elements).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/host/cli.h"
#include "common/host/device.h"
#include "common/host/typed.h"
#include "lessons/16_any_axes/axes_api.h"

namespace rl::test {

struct Layout {
  std::vector<std::int64_t> sizes, strides;
  std::vector<int> axes;
};

inline std::string describe(const Layout& l) {
  std::string s = "sizes";
  for (auto v : l.sizes) s += " " + std::to_string(v);
  s += ", strides";
  for (auto v : l.strides) s += " " + std::to_string(v);
  s += ", axes";
  for (auto v : l.axes) s += " " + std::to_string(v);
  return s;
}

// A random layout: rank 1..max_rank, sizes from a small set (0 and 1 included), the dimensions laid
// out in memory in a random order (a transposed tensor), sometimes with a gap between rows, and a
// random subset of the axes reduced.
inline Layout random_layout(std::mt19937_64& rng, unsigned max_rank, std::uint64_t max_elements) {
  static constexpr std::int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 33};
  Layout l;
  for (;;) {
    const unsigned rank = 1 + static_cast<unsigned>(rng() % max_rank);
    l.sizes.assign(rank, 1);
    std::uint64_t total = 1;
    for (auto& s : l.sizes) s = rng() % 17 == 0 ? 0 : sizes[rng() % std::size(sizes)], total *= std::max<std::int64_t>(s, 1);
    if (total <= max_elements) break;
  }
  const std::size_t rank = l.sizes.size();
  std::vector<std::size_t> order(rank);  // order[0] is laid out outermost
  for (std::size_t i = 0; i < rank; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  l.strides.assign(rank, 0);
  std::int64_t step = 1;
  for (std::size_t j = rank; j-- > 0;) {
    l.strides[order[j]] = step;
    step *= std::max<std::int64_t>(l.sizes[order[j]], 1) + (rng() % 5 == 0 ? 1 : 0);  // sometimes a gap
  }
  for (std::size_t i = 0; i < rank; ++i)
    if (rng() % 2) l.axes.push_back(static_cast<int>(i));
  std::shuffle(l.axes.begin(), l.axes.end(), rng);
  return l;
}

// Uploads the tensor `offset` elements past an aligned allocation (offset 1: no 16-byte packs).
inline void check_axes(Device& d, ReduceOp op, DType t, const Layout& l, std::uint64_t seed, unsigned offset = 0) {
  const AxesPlan plan = plan_axes(l.sizes, l.strides, l.axes);
  const std::size_t width = dtype_bytes(t);
  std::vector<std::byte> host(plan.input_span * width);
  fill_typed(host.data(), t, plan.input_span, seed, Distribution::uniform);
  DeviceBuffer buffer(d, host.size() + 16 + offset * width);
  auto* in = buffer.get<std::byte>() + offset * width;
  if (!host.empty()) d.upload(in, host.data(), host.size());
  INFO(describe(l) << "; " << plan.describe() << "; " << to_string(op) << " " << to_string(t) << " at offset " << offset);
  if (plan.reduced == 0 && plan.outputs > 0 && !allows_empty(op)) {
    CHECK_THROWS_AS(run_axes(d, op, t, in, plan), UsageError);
    return;
  }
  const std::vector<OpValue> got = run_axes(d, op, t, in, plan);
  REQUIRE(got.size() == plan.outputs);
  const std::uint64_t depth = axes_backend(d.backend())->depth(t, plan, in, d.shape());
  const std::vector<OpReference> refs = axes_reference(op, t, host.data(), plan, l.sizes, l.strides, l.axes, depth);
  std::uint64_t wrong = 0, first = 0;
  for (std::uint64_t m = 0; m < plan.outputs; ++m)
    if (!matches(refs[m], got[m], op) && wrong++ == 0) first = m;
  INFO("first wrong output " << first << ": got " << (wrong ? got[first].value : 0.0) << " ["
                             << (wrong ? got[first].index : 0) << "], expected "
                             << (wrong ? refs[first].expected.value : 0.0) << " [" << (wrong ? refs[first].expected.index : 0)
                             << "]");
  CHECK(wrong == 0);
}

}  // namespace rl::test
