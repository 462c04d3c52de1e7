// rl::checked_span<T>: a (pointer, length, name) view for kernels.
// Under nvcc operator[] is a plain, unchecked access (zero cost). Under the CPU
// simulator it bounds-checks and reports a violation as a kernel error naming the
// kernel, block, thread, the span's name, the index and the length.
#pragma once
#include <cstddef>

#include "common/cuda_compat.h"

#if !defined(__CUDACC__)
#include <string>
#include <type_traits>
#endif

namespace rl {

template <class T>
class checked_span {
 public:
  using element_type = T;
  using size_type = unsigned long long;

  __host__ __device__ __forceinline__ checked_span(T* data, size_type size,
                                                   const char* name = "span")
      : data_(data), size_(size), name_(name) {}

  __host__ __device__ __forceinline__ T* data() const { return data_; }
  __host__ __device__ __forceinline__ size_type size() const { return size_; }
  __host__ __device__ __forceinline__ const char* name() const { return name_; }

#if defined(__CUDACC__)
  __host__ __device__ __forceinline__ T& operator[](size_type i) const { return data_[i]; }
#else
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
  T& operator[](I i) const {
    if constexpr (std::is_signed_v<I>) {
      if (i < 0) out_of_range(std::to_string(static_cast<long long>(i)));
    }
    if (static_cast<unsigned long long>(i) >= size_)
      out_of_range(std::to_string(static_cast<unsigned long long>(i)));
    return data_[i];
  }

 private:
  [[noreturn]] void out_of_range(const std::string& index) const {
    sim::kernel_error("checked_span '" + std::string(name_ ? name_ : "?") + "': index " + index +
                      " is out of range (length " + std::to_string(size_) + ")");
  }
#endif

 private:
  T* data_;
  size_type size_;
  const char* name_;
};

}  // namespace rl
