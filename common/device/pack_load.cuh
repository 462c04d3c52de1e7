#pragma once
// Lesson 18's loads, for the typed kernels of lessons 18-21: a thread reads 16 bytes at a time, a
// pack of pack_size<T> elements of any type, and widens them (reduce_ops.cuh's Widen) before any of
// them is combined. Where the data is not 16-byte aligned, a "pack" is one element (load_width).
#include <cstdint>
#include <cstring>

#include "common/cuda_compat.h"
#include "common/device/reduce_ops.cuh"

RL_NAMESPACE_BEGIN

// 8 halves, 4 floats, 2 doubles, 4 ints
template <class T>
inline constexpr unsigned pack_size = 16 / sizeof(T);

// One 16-byte load (int4: the only 16-byte type __ldg takes). `at` is 16-byte aligned.
template <class T>
__device__ __forceinline__ int4 load_raw(const T* at) {
  return __ldg(reinterpret_cast<const int4*>(at));
}

// The K elements of T in a load, widened.
template <class T, unsigned K = pack_size<T>>
__device__ __forceinline__ void widen_pack(const int4& raw, wide_t<T> (&out)[K]) {
  T v[K];
  std::memcpy(v, &raw, sizeof(raw));  // reinterpret the bits; compiles to nothing
#pragma unroll
  for (unsigned j = 0; j < K; ++j) out[j] = Widen<T>::from(v[j]);
}

// A 16-byte pack when Vec (every row starts 16-byte aligned), else a single element.
template <class T, bool Vec>
inline constexpr unsigned load_width = Vec ? pack_size<T> : 1u;

// One load of load_width<T, Vec> elements, widened. Stream: a load whose line is read once and
// never again (ld.global.cs, evict-first in L1 and L2).
template <class T, bool Vec, bool Stream = false>
__device__ __forceinline__ void load_one(const T* at, wide_t<T> (&v)[load_width<T, Vec>]) {
  if constexpr (Vec) {
    // int4: the 16-byte type __ldg and __ldcs take
    const auto* at16 = reinterpret_cast<const int4*>(at);
    const int4 raw = Stream ? __ldcs(at16) : __ldg(at16);
    T e[load_width<T, Vec>];
    std::memcpy(e, &raw, sizeof(raw));  // the same bits as K elements; no instructions
#pragma unroll
    for (unsigned j = 0; j < load_width<T, Vec>; ++j) v[j] = Widen<T>::from(e[j]);
  } else {
    v[0] = Widen<T>::from(Stream ? __ldcs(at) : at[0]);
  }
}

// Whether every row of a row-major matrix with rows of n elements, starting at `in`, starts on a
// 16-byte boundary: then the rows can be read in whole packs (lessons 19 and 20 ask it).
template <class T>
bool rows_vectorizable(const T* in, std::uint64_t n) {
  return reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && n * sizeof(T) % 16 == 0;
}

RL_NAMESPACE_END
