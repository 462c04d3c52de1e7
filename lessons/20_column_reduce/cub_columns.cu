// CUB's counterpart of lesson 20. CUB has no column reduce; the nearest call is
// cub::DeviceSegmentedReduce::Sum over a column-major view of the matrix: a permutation iterator
// whose k-th element is in[(k % M) * N + k / M], segments of M starting at c * M. It reads every
// column top to bottom, so consecutive threads touch addresses N floats apart: that is what a
// segmented reduce does with columns, and why the lesson's kernel exists.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_segmented_reduce.cuh>

#include "common/backends/gpu/check.h"
#include "common/host/backend_copies.h"
#include "lessons/20_column_reduce/column_reduce_api.h"

namespace rl {
namespace {

struct ColumnMajor {
  long long m, n;
  __host__ __device__ long long operator()(long long k) const { return (k % m) * n + k / m; }
};
struct SegmentStart {
  long long m;
  __host__ __device__ long long operator()(long long c) const { return c * m; }
};

cudaError_t segmented_columns(const float* in, std::uint64_t m, std::uint64_t n, void* scratch,
                              std::size_t& bytes, float* out, cudaStream_t s) {
  const auto mm = static_cast<long long>(m), nn = static_cast<long long>(n);
  const auto order =
      thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), ColumnMajor{mm, nn});
  const auto column_major = thrust::make_permutation_iterator(in, order);
  const auto offsets =
      thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), SegmentStart{mm});
  return cub::DeviceSegmentedReduce::Sum(scratch, bytes, column_major, out,
                                         static_cast<std::int64_t>(n), offsets, offsets + 1, s);
}

}  // namespace

// The GPU's only copy: CUB has no simulator version (columns_cub(), common/host/backend_copies.h).
template <>
const ColumnsCub& compiled_table<ColumnsCub, Backend::gpu>() {
  static const ColumnsCub table{
      {"DeviceSegmentedReduce::Sum (column-major permutation iterator)",
       [](std::uint64_t m, std::uint64_t n) {
         std::size_t bytes = 0;
         RL_CUDA_CHECK(segmented_columns(nullptr, m, n, nullptr, bytes, nullptr, nullptr));
         return bytes;
       },
       [](const float* in, std::uint64_t m, std::uint64_t n, void* scratch, std::size_t bytes,
          float* out, void* stream) {
         RL_CUDA_CHECK(
             segmented_columns(in, m, n, scratch, bytes, out, static_cast<cudaStream_t>(stream)));
       }}};
  return table;
}

}  // namespace rl
