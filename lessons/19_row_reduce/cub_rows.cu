// CUB's counterpart of lesson 19: cub::DeviceSegmentedReduce::Sum over M segments of N floats, the
// segment offsets r * N computed on the fly (a transform of a counting iterator, no offsets array).
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_segmented_reduce.cuh>

#include "common/backends/gpu/check.h"
#include "common/host/backend_copies.h"
#include "lessons/19_row_reduce/row_reduce_api.h"

namespace rl {
namespace {

struct RowStart {
  long long n;
  __host__ __device__ long long operator()(long long r) const { return r * n; }
};

cudaError_t segmented_rows(const float* in, std::uint64_t m, std::uint64_t n, void* scratch,
                           std::size_t& bytes, float* out, cudaStream_t s) {
  const auto offsets = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                                       RowStart{static_cast<long long>(n)});
  return cub::DeviceSegmentedReduce::Sum(scratch, bytes, in, out, static_cast<std::int64_t>(m),
                                         offsets, offsets + 1, s);
}

}  // namespace

// The GPU's only copy: CUB has no simulator version (rows_cub(), common/host/backend_copies.h).
template <>
const RowsCub& compiled_table<RowsCub, Backend::gpu>() {
  static const RowsCub table{
      {"DeviceSegmentedReduce::Sum (offsets r*N)",
       [](std::uint64_t m, std::uint64_t n) {
         std::size_t bytes = 0;
         RL_CUDA_CHECK(segmented_rows(nullptr, m, n, nullptr, bytes, nullptr, nullptr));
         return bytes;
       },
       [](const float* in, std::uint64_t m, std::uint64_t n, void* scratch, std::size_t bytes,
          float* out, void* stream) {
         RL_CUDA_CHECK(
             segmented_rows(in, m, n, scratch, bytes, out, static_cast<cudaStream_t>(stream)));
       }}};
  return table;
}

}  // namespace rl
