// Lesson 21's graded cases: hand-checked plans, and reductions checked output by output.
#include "lessons/21_any_axes/axes_cases.h"

#include <algorithm>
#include <iterator>

#include "common/host/cli.h"
#include "common/host/typed_outputs.h"
#include "lessons/21_any_axes/axes_api.h"

namespace rl {

namespace {

template <class V>
std::string joined(const std::vector<V>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += sep;
    s += std::to_string(v[i]);
  }
  return s;
}

}  // namespace

std::string describe(const AxesLayout& l) {
  return "sizes " + joined(l.sizes, "x") + ", strides " + joined(l.strides, ",") + ", axes {" +
         joined(l.axes, ",") + "}";
}

AxesLayout random_layout(std::mt19937_64& rng, unsigned most_rank, std::uint64_t max_elements) {
  static constexpr std::int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 33};
  AxesLayout l;
  for (;;) {
    const unsigned rank = 1 + static_cast<unsigned>(rng() % most_rank);
    l.sizes.assign(rank, 1);
    std::uint64_t total = 1;
    for (auto& s : l.sizes)
      s = rng() % 17 == 0 ? 0 : sizes[rng() % std::size(sizes)],
      total *= std::max<std::int64_t>(s, 1);
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
    // sometimes a gap
    step *= std::max<std::int64_t>(l.sizes[order[j]], 1) + (rng() % 5 == 0 ? 1 : 0);
  }
  for (std::size_t i = 0; i < rank; ++i)
    if (rng() % 2) l.axes.push_back(static_cast<int>(i));
  std::shuffle(l.axes.begin(), l.axes.end(), rng);
  return l;
}

std::string merged_text(const AxesPlan& p) {
  std::string s;
  // appended piece by piece: GCC 12's -Wrestrict misfires on "" + string
  for (const MergedAxis& a : p.axes) {
    if (!s.empty()) s += ' ';
    s += std::to_string(a.size) + (a.reduced ? "R/" : "K/") + std::to_string(a.stride);
  }
  return s;
}

std::vector<PlanCase> axes_plan_cases() {
  using S = AxesStrategy;
  const auto contiguous = [](std::vector<std::int64_t> sizes, std::vector<int> axes) {
    const auto strides = contiguous_strides(sizes);
    return AxesLayout{std::move(sizes), strides, std::move(axes)};
  };
  const std::vector<std::int64_t> bench{64, 128, 64, 128}, twos(8, 2);
  return {
      {contiguous({4, 5, 6}, {0, 1, 2}), "120R/1", S::rows,
       "a contiguous tensor reduced whole is one run: one axis"},
      {contiguous({4, 5, 6}, {}), "120K/1", S::columns,
       "nothing reduced: a contiguous tensor's kept axes are one run"},
      {contiguous(bench, {3}), "524288K/128 128R/1", S::rows,
       "neighbours of one kind merge: three kept axes, one run"},
      {contiguous(bench, {0}), "64R/1048576 1048576K/1", S::columns,
       "neighbours of one kind merge"},
      {contiguous(bench, {2, 3}), "8192K/8192 8192R/1", S::rows, "neighbours of one kind merge"},
      {contiguous(bench, {0, 2}), "64R/1048576 128K/8192 64R/128 128K/1", S::strided_columns,
       "kept and reduced axes alternate: nothing merges"},
      {contiguous(bench, {1, 3}), "64K/1048576 128R/8192 64K/128 128R/1", S::strided_rows,
       "kept and reduced axes alternate: nothing merges"},
      {contiguous({4, 5, 6}, {2, 0}), "4R/30 5K/6 6R/1", S::strided_rows,
       "the order the axes are named in does not matter"},
      {contiguous({4, 1, 5}, {1}), "20K/1", S::columns,
       "a size-1 axis moves nothing: dropped, its neighbours merge"},
      {contiguous({4, 1, 5}, {0, 2}), "20R/1", S::rows,
       "a size-1 kept axis no longer separates two reduced ones"},
      {contiguous({1, 1, 1}, {0, 2}), "", S::columns, "size-1 axes only: a single element"},
      {{{3, 4}, {1, 3}, {0}},
       "4K/3 3R/1",
       S::rows,
       "a transposed view: ordered by stride, not by axis number"},
      {{{3, 4}, {1, 3}, {1}},
       "4R/3 3K/1",
       S::columns,
       "a transposed view: ordered by stride, not by axis number"},
      {{{3, 4}, {1, 3}, {0, 1}},
       "4R/3 3R/1",
       S::strided_rows,
       "reduced axes numbered against memory order do not merge: argmax's index would differ"},
      {{{2, 3, 4}, {1, 8, 2}, {}},
       "12K/2 2K/1",
       S::strided_columns,
       "contiguous in the input but not in the output (row-major in the caller's order): no merge"},
      {{{2, 3, 4}, {1, 8, 2}, {0}},
       "12K/2 2R/1",
       S::rows,
       "ordered by stride, then axes 1 and 2 merge"},
      {{{8, 16}, {32, 2}, {1}},
       "8K/32 16R/2",
       S::strided_rows,
       "a slice with step 2: the innermost stride is 2"},
      {{{8, 16}, {20, 1}, {1}},
       "8K/20 16R/1",
       S::rows,
       "a padded row (pitch 20 for 16 elements) is still rows"},
      {{{5, 6}, {0, 1}, {0}},
       "5R/0 6K/1",
       S::columns,
       "a broadcast axis (stride 0) walks no memory: it goes outermost"},
      {contiguous(twos, {4, 5, 6, 7}), "16K/16 16R/1", S::rows,
       "rank 8: the kept half and the reduced half"},
      {contiguous(twos, {0, 1, 2, 3}), "16R/16 16K/1", S::columns,
       "rank 8: the reduced half and the kept half"},
      {contiguous(twos, {1, 3, 5, 7}), "2K/128 2R/64 2K/32 2R/16 2K/8 2R/4 2K/2 2R/1",
       S::strided_rows, "rank 8, alternating: nothing merges"},
      {contiguous({3, 0, 4}, {1}), "12K/1", S::columns,
       "an empty reduction: the reduced axes walk nothing"},
      {contiguous({3, 0, 4}, {0}), "", S::columns, "no outputs: nothing to walk at all"},
  };
}

std::vector<unsigned char> plan_case_outputs(const PlanCase& c) {
  const AxesPlan p = plan_axes(c.layout.sizes, c.layout.strides, c.layout.axes);
  const std::string text = merged_text(p) + "|" + to_string(p.strategy);
  return {text.begin(), text.end()};
}

std::optional<std::string> plan_outputs_failure(const PlanCase& c,
                                                const std::vector<unsigned char>& got_bytes) {
  // handed back by the submission: shown with anything unprintable as '?', and cut
  std::string got;
  for (const unsigned char b : got_bytes)
    if (got.size() < 200) got += b >= 0x20 && b < 0x7f ? static_cast<char>(b) : '?';
  const std::string expected = c.merged + "|" + to_string(c.strategy);
  if (got == expected) return std::nullopt;
  const auto text = [](const std::string& plan) {
    const auto bar = plan.rfind('|');
    const std::string merged = plan.substr(0, bar);
    return (merged.empty() ? std::string("no axes") : merged) + " (" +
           (bar == std::string::npos ? std::string("?") : plan.substr(bar + 1)) + ")";
  };
  return "expected the merged axes (size, Kept or Reduced, /stride, outermost first) " +
         text(expected) + ", got " + text(got) + ": " + c.why;
}

std::optional<std::string> plan_case_failure(const PlanCase& c) {
  return plan_outputs_failure(c, plan_case_outputs(c));
}

std::vector<AxesCase> axes_graded_cases() {
  const std::vector<DType> types{DType::f32, DType::f16, DType::i32};
  const std::vector<ReduceOp> ops(std::begin(all_ops), std::end(all_ops));
  std::vector<AxesCase> cases;
  // Rank 8: some axes, none, all, and two at the ends.
  const std::vector<std::int64_t> rank8{2, 3, 2, 1, 2, 3, 2, 2};
  for (const std::vector<int>& axes :
       {std::vector<int>{1, 3, 5, 7}, {}, {0, 1, 2, 3, 4, 5, 6, 7}, {7, 0}})
    cases.push_back({{rank8, contiguous_strides(rank8), axes}, {DType::f32}, ops, 3});
  // Transposed and broadcast views, where merging by the input alone would be wrong; an empty
  // reduction (sum: 0, the rest: a usage error) and a tensor with no outputs.
  for (const AxesLayout& l :
       {AxesLayout{{2, 3, 4}, {1, 8, 2}, {}}, AxesLayout{{2, 3, 4}, {1, 8, 2}, {0}},
        AxesLayout{{3, 4}, {1, 3}, {0, 1}}, AxesLayout{{5, 6}, {0, 1}, {0}},
        AxesLayout{{3, 0, 4}, {4, 4, 1}, {1}}, AxesLayout{{3, 0, 4}, {4, 4, 1}, {0}}})
    cases.push_back({l, types, ops, 5});
  // The benchmark's four layouts, small, with 16-byte packs and without (one element off).
  const std::vector<std::int64_t> bench{4, 16, 4, 32};
  for (const std::vector<int>& axes : {std::vector<int>{0, 2}, {1, 3}, {3}, {0}})
    for (const unsigned offset : {0u, 1u})
      cases.push_back({{bench, contiguous_strides(bench), axes}, types, ops, 7, offset});
  // Random axes of random transposed tensors, sizes 0 and 1 included.
  std::mt19937_64 rng(16);
  for (std::uint64_t trial = 0; trial < 24; ++trial)
    cases.push_back({random_layout(rng, 5, 3000), types, ops, 100 + trial});
  // Few outputs, long reductions: split across blocks, then finished in order.
  for (const AxesLayout& l :
       {AxesLayout{{3, 6000}, {6000, 1}, {1}}, AxesLayout{{6000, 3}, {3, 1}, {0}},
        AxesLayout{{2, 40, 3, 50}, {6000, 150, 50, 1}, {1, 3}}})
    cases.push_back({l, types, ops, 11});
  return cases;
}

std::string describe(const AxesLayout& l, ReduceOp op, DType t, std::uint64_t seed,
                     unsigned offset) {
  return std::string(to_string(op)) + " of " + std::string(to_string(t)) + " over " + describe(l) +
         ", seed " + std::to_string(seed) +
         (offset ? ", " + std::to_string(offset) + " element past 16 bytes" : std::string());
}

std::vector<unsigned char> axes_case_outputs(Device& d, const AxesLayout& l, ReduceOp op, DType t,
                                             std::uint64_t seed, unsigned offset) {
  const AxesPlan plan = plan_axes(l.sizes, l.strides, l.axes);
  const std::size_t width = dtype_bytes(t);
  std::vector<std::byte> host(plan.input_span * width);
  fill_typed(host.data(), t, plan.input_span, seed, Distribution::uniform);
  DeviceBuffer buffer(d, host.size() + 16 + offset * width);  // allocations are 256-byte aligned
  std::byte* in = buffer.get<std::byte>() + offset * width;
  if (!host.empty()) d.upload(in, host.data(), host.size());
  if (plan.reduced == 0 && plan.outputs > 0 && !allows_empty(op)) {
    try {
      return run_axes_raw(d, op, t, in, plan);
    } catch (const UsageError&) {
      return {};  // refused, as it must be: no outputs
    }
  }
  return run_axes_raw(d, op, t, in, plan);
}

std::optional<std::string> axes_outputs_failure(Backend backend, const DeviceShape& shape,
                                                const AxesLayout& l, ReduceOp op, DType t,
                                                std::uint64_t seed, unsigned offset,
                                                const std::vector<unsigned char>& raw) {
  const AxesPlan plan = plan_axes(l.sizes, l.strides, l.axes);
  if (plan.reduced == 0 && plan.outputs > 0 && !allows_empty(op)) {
    if (raw.empty()) return std::nullopt;
    return "an empty reduction has no " + std::string(to_string(op)) +
           ": expected a usage error, got outputs";
  }
  const std::size_t width = dtype_bytes(t), one = reduce_output_bytes(op, t);
  if (raw.size() != plan.outputs * one)
    return "returned " + std::to_string(raw.size() / one) + " outputs for " +
           std::to_string(plan.outputs);
  std::vector<std::byte> host(plan.input_span * width);
  fill_typed(host.data(), t, plan.input_span, seed, Distribution::uniform);
  // The depth reads only the input's alignment (whether 16-byte packs fit): an address aligned as
  // the case's input was, 256-byte aligned plus the offset.
  const void* aligned_like = reinterpret_cast<const void*>(std::uintptr_t{256} + offset * width);
  const std::uint64_t depth = axes_kernels(backend)->depth(t, plan, aligned_like, shape);
  const std::vector<OpReference> refs =
      axes_reference(op, t, host.data(), plan, l.sizes, l.strides, l.axes, depth);
  const WrongOutputs wrong = wrong_outputs(
      op, t, raw, [&](std::uint64_t m) { return refs[m]; }, "output");
  if (wrong.count == 0) return std::nullopt;
  return wrong.first + " (" + std::to_string(wrong.count) + " of " + std::to_string(plan.outputs) +
         " outputs wrong; " + plan.describe() + ")";
}

std::optional<std::string> axes_case_failure(Device& d, const AxesLayout& l, ReduceOp op, DType t,
                                             std::uint64_t seed, unsigned offset,
                                             std::vector<unsigned char>* bytes) {
  std::vector<unsigned char> raw = axes_case_outputs(d, l, op, t, seed, offset);
  auto why = axes_outputs_failure(d.backend(), d.shape(), l, op, t, seed, offset, raw);
  if (bytes) *bytes = std::move(raw);
  return why;
}

}  // namespace rl
