// CUB's nearest call for each lesson-20 plan (sum only): cub::DeviceSegmentedReduce::Sum, one
// segment per output.
//  * rows (the reduced axis innermost and contiguous, one kept axis): segment m is [m * ld, m * ld
//    + K) of the tensor itself, read through begin/end offset iterators: CUB's own row reduction.
//  * every other plan (columns included: CUB has no column reduction): a gather iterator that maps
//    element r of segment m to the tensor's offset through the same merged axes as ours (a counting
//    iterator through a transform, the way CUB's documentation builds fancy inputs). Segment m is
//    the m-th output in the kept axes' memory order (the output order for a contiguous tensor).
// The 16-bit types and int32 are widened on load, like ours, so the sums are of the same type.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_segmented_reduce.cuh>

#include <string>

#include "common/backends/gpu/check.h"
#include "common/host/backend_copies.h"
#include "common/host/type_dispatch.h"
#include "lessons/21_any_axes/any_axes.cuh"
#include "lessons/21_any_axes/axes_api.h"
#include "lessons/21_any_axes/plan.cuh"  // geometry_of

namespace rl {
namespace {

template <class T>
struct LoadWide {
  const T* in;
  __device__ wide_t<T> operator()(std::int64_t i) const { return Widen<T>::from(in[i]); }
};

// Element j of the segments laid end to end: output j / K, reduced element j % K.
template <class T>
struct Gather {
  const T* in;
  AxesGeometry g;
  __device__ wide_t<T> operator()(std::int64_t j) const {
    const auto flat = static_cast<std::uint64_t>(j);
    std::uint64_t k = flat / g.reduced, r = flat - k * g.reduced, off = 0, out_off = 0;
    locate_kept(g, k, off, out_off);
    for (unsigned i = 0; i < g.red_rank; ++i) {
      const std::uint64_t q = r / g.red_size[i];
      off += (r - q * g.red_size[i]) * g.red_stride[i];
      r = q;
    }
    return Widen<T>::from(in[off]);
  }
};

struct RowStart {
  std::int64_t ld, k, extra;  // row m: [m * ld, m * ld + k) (+ extra for the end)
  __device__ std::int64_t operator()(std::int64_t m) const { return m * ld + extra; }
};

bool is_rows(const AxesPlan& p) { return p.strategy == AxesStrategy::rows; }

template <class T>
cudaError_t call(const T* in, const AxesPlan& p, void* scratch, std::size_t& bytes, void* out,
                 cudaStream_t s) {
  using W = wide_t<T>;
  const auto m = static_cast<std::int64_t>(p.outputs), k = static_cast<std::int64_t>(p.reduced);
  const thrust::counting_iterator<std::int64_t> count(0);
  if (is_rows(p)) {
    const auto kept = p.kept_inner_first();
    const std::int64_t ld = kept.empty() ? 0 : static_cast<std::int64_t>(kept[0].stride);
    const auto values = thrust::make_transform_iterator(count, LoadWide<T>{in});
    const auto begins = thrust::make_transform_iterator(count, RowStart{ld, k, 0});
    const auto ends = thrust::make_transform_iterator(count, RowStart{ld, k, k});
    return cub::DeviceSegmentedReduce::Sum(scratch, bytes, values, static_cast<W*>(out), m, begins,
                                           ends, s);
  }
  const auto values = thrust::make_transform_iterator(count, Gather<T>{in, geometry_of(p)});
  const auto begins = thrust::make_transform_iterator(count, RowStart{k, k, 0});
  const auto ends = thrust::make_transform_iterator(count, RowStart{k, k, k});
  return cub::DeviceSegmentedReduce::Sum(scratch, bytes, values, static_cast<W*>(out), m, begins,
                                         ends, s);
}

}  // namespace

// The GPU's only copy: CUB has no simulator version (axes_cub(), common/host/backend_copies.h).
template <>
const AxesCub& compiled_table<AxesCub, Backend::gpu>() {
  static const AxesCub table{
      [](const AxesPlan& p) -> std::string {
        return is_rows(p) ? "DeviceSegmentedReduce::Sum, rows by offsets"
                          : "DeviceSegmentedReduce::Sum over a gather iterator";
      },
      [](DType t, const AxesPlan& p) {
        std::size_t bytes = 0;
        if (p.outputs == 0 || p.reduced == 0) return bytes;
        for_type(t, [&](auto tag) {
          using T = typename decltype(tag)::type;
          RL_CUDA_CHECK(call(static_cast<const T*>(nullptr), p, nullptr, bytes, nullptr, nullptr));
        });
        return bytes;
      },
      [](DType t, const void* in, const AxesPlan& p, void* scratch, std::size_t bytes, void* out,
         void* stream) {
        if (p.outputs == 0 || p.reduced == 0) return;
        for_type(t, [&](auto tag) {
          using T = typename decltype(tag)::type;
          RL_CUDA_CHECK(call(static_cast<const T*>(in), p, scratch, bytes, out,
                             static_cast<cudaStream_t>(stream)));
        });
      },
      [](ReduceOp op, DType) { return op == ReduceOp::sum; }};
  return table;
}

}  // namespace rl
