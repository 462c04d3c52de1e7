// CUB's counterpart of each lesson-17 operator, called as its documentation shows, on the same type
// with the same accumulator: Sum (TransformReduce to float for the 16-bit types, whose operator+
// with float is ambiguous), Max, Min, ArgMax, ArgMin, and for the variance TransformReduce with the
// lesson's own (count, mean, M2) merge: one pass, like ours, which is the fair comparison (a
// two-pass variance reads the input twice and would lose by 2x for that reason alone).
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <string>

#include "common/backends/gpu/check.h"
#include "common/host/backend_copies.h"
#include "common/host/type_dispatch.h"
#include "lessons/18_operators_and_types/ops_api.h"

namespace rl {
namespace {

template <class T>
struct ToWide {
  __device__ wide_t<T> operator()(T x) const { return Widen<T>::from(x); }
};
template <class T>
struct ToMoments {
  __device__ typename Variance<T>::Acc operator()(T x) const {
    return Variance<T>::transform(Widen<T>::from(x), 0);
  }
};
template <class T>
struct ChanMerge {
  __device__ typename Variance<T>::Acc operator()(typename Variance<T>::Acc a,
                                                  typename Variance<T>::Acc b) const {
    return Variance<T>::combine(a, b);
  }
};

// One CUB call for (op, T); with scratch == nullptr it only sets `bytes` (CUB's two-call protocol).
template <class T>
cudaError_t call(ReduceOp op, const T* in, std::int64_t n, void* scratch, std::size_t& bytes,
                 void* out, cudaStream_t s) {
  using W = wide_t<T>;
  constexpr bool narrow = sizeof(T) == 2;
  switch (op) {
    case ReduceOp::sum:
    case ReduceOp::mean:  // the mean is a sum and one division
      if constexpr (narrow)
        return cub::DeviceReduce::TransformReduce(scratch, bytes, in, static_cast<W*>(out), n,
                                                  ::cuda::std::plus<W>{}, ToWide<T>{}, W{0}, s);
      else
        return cub::DeviceReduce::Sum(scratch, bytes, in, static_cast<W*>(out), n, s);
    case ReduceOp::max:
      return cub::DeviceReduce::Max(scratch, bytes, in, static_cast<T*>(out), n, s);
    case ReduceOp::min:
      return cub::DeviceReduce::Min(scratch, bytes, in, static_cast<T*>(out), n, s);
    case ReduceOp::variance: {
      using Acc = typename Variance<T>::Acc;
      return cub::DeviceReduce::TransformReduce(scratch, bytes, in, static_cast<Acc*>(out), n,
                                                ChanMerge<T>{}, ToMoments<T>{}, Acc{0, 0, 0}, s);
    }
    case ReduceOp::argmax:
      return cub::DeviceReduce::ArgMax(
          scratch, bytes, in, static_cast<T*>(out),
          reinterpret_cast<std::int64_t*>(static_cast<char*>(out) + 16), n, s);
    case ReduceOp::argmin:
      return cub::DeviceReduce::ArgMin(
          scratch, bytes, in, static_cast<T*>(out),
          reinterpret_cast<std::int64_t*>(static_cast<char*>(out) + 16), n, s);
  }
  return cudaErrorInvalidValue;
}

}  // namespace

// The GPU's only copy: CUB has no simulator version (ops_cub(), common/host/backend_copies.h).
template <>
const OpsCub& compiled_table<OpsCub, Backend::gpu>() {
  static const OpsCub table{
      [](ReduceOp op, DType t) -> std::string {
        switch (op) {
          case ReduceOp::sum:
          case ReduceOp::mean:
            return t == DType::f16 || t == DType::bf16 ? "TransformReduce(+)" : "Sum";
          case ReduceOp::max:
            return "Max";
          case ReduceOp::min:
            return "Min";
          case ReduceOp::variance:
            return "TransformReduce(Chan)";
          case ReduceOp::argmax:
            return "ArgMax";
          case ReduceOp::argmin:
            return "ArgMin";
        }
        return "?";
      },
      [](ReduceOp op, DType t, std::uint64_t n) {
        std::size_t bytes = 0;
        for_type(t, [&](auto tag) {
          using T = typename decltype(tag)::type;
          RL_CUDA_CHECK(call(op, static_cast<const T*>(nullptr), static_cast<std::int64_t>(n),
                             nullptr, bytes, nullptr, nullptr));
        });
        return bytes;
      },
      [](ReduceOp op, DType t, const void* in, std::uint64_t n, void* scratch, std::size_t bytes,
         void* out, void* stream) {
        for_type(t, [&](auto tag) {
          using T = typename decltype(tag)::type;
          RL_CUDA_CHECK(call(op, static_cast<const T*>(in), static_cast<std::int64_t>(n), scratch,
                             bytes, out, static_cast<cudaStream_t>(stream)));
        });
      }};
  return table;
}

}  // namespace rl
