#pragma once
// Lesson 18's idea, for the lessons after it (14, 15, 16): what a reduction is made of. An operator
// is four things: the accumulator type, its identity, a transform applied to each (widened) input
// before the fold, and an associative combine. Every kernel of lessons 18-21 folds through these
// and nothing else.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/cuda_compat.h"
#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

RL_NAMESPACE_BEGIN

// The type an input is read into before anything is added: 16-bit floats widen to float (exactly),
// float stays float, double stays double, int32 widens to int64 so that no sum of 2^32 ints
// overflows.
template <class T>
struct Widen;
template <>
struct Widen<float> {
  using type = float;
  static __device__ __forceinline__ float from(float x) { return x; }
};
template <>
struct Widen<double> {
  using type = double;
  static __device__ __forceinline__ double from(double x) { return x; }
};
template <>
struct Widen<__half> {
  using type = float;
  static __device__ __forceinline__ float from(__half x) { return __half2float(x); }
};
template <>
struct Widen<__nv_bfloat16> {
  using type = float;
  static __device__ __forceinline__ float from(__nv_bfloat16 x) { return __bfloat162float(x); }
};
template <>
struct Widen<int> {
  using type = long long;
  static __device__ __forceinline__ long long from(int x) { return x; }
};
template <class T>
using wide_t = typename Widen<T>::type;

template <class W>
__device__ __forceinline__ bool is_nan(W x) {
  if constexpr (std::is_floating_point_v<W>)
    return x != x;  // only NaN differs from itself
  else
    return false;  // integers have no NaN
}
// Below (above) every input: -inf (+inf) for floating types, so an all -inf input still has a max.
template <class W>
__device__ __forceinline__ W lowest() {
  if constexpr (std::is_floating_point_v<W>)
    return static_cast<W>(-INFINITY);
  else
    return static_cast<W>(-0x7fffffffffffffffLL - 1);
}
template <class W>
__device__ __forceinline__ W highest() {
  if constexpr (std::is_floating_point_v<W>)
    return static_cast<W>(INFINITY);
  else
    return static_cast<W>(0x7fffffffffffffffLL);
}

template <class T>
struct Sum {
  using Acc = wide_t<T>;
  using Out = Acc;
  static __device__ __forceinline__ Acc identity() { return Acc{0}; }
  static __device__ __forceinline__ Acc transform(wide_t<T> x, std::uint64_t) { return x; }
  // NaN, inf: IEEE's rules
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return a + b; }
  static __device__ __forceinline__ Out finish(Acc a, std::uint64_t) { return a; }
};

// The mean is a sum with a different finish: one division, once, by the count.
template <class T>
struct Mean : Sum<T> {
  using Acc = wide_t<T>;
  // an int's mean is not an int
  using Out = std::conditional_t<std::is_integral_v<Acc>, double, Acc>;
  static __device__ __forceinline__ Out finish(Acc a, std::uint64_t n) {
    return static_cast<Out>(a) / static_cast<Out>(n);
  }
};

// Max and min propagate NaN (PyTorch's rule): once either side is NaN the result is NaN.
template <class T>
struct Max {
  using Acc = wide_t<T>;
  using Out = Acc;
  static __device__ __forceinline__ Acc identity() { return lowest<Acc>(); }
  static __device__ __forceinline__ Acc transform(wide_t<T> x, std::uint64_t) { return x; }
  // a is kept when it is NaN or larger; when b is NaN, a > b is false, so b (the NaN) is returned.
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return is_nan(a) || a > b ? a : b; }
  static __device__ __forceinline__ Out finish(Acc a, std::uint64_t) { return a; }
};

template <class T>
struct Min {
  using Acc = wide_t<T>;
  using Out = Acc;
  static __device__ __forceinline__ Acc identity() { return highest<Acc>(); }
  static __device__ __forceinline__ Acc transform(wide_t<T> x, std::uint64_t) { return x; }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return is_nan(a) || a < b ? a : b; }
  static __device__ __forceinline__ Out finish(Acc a, std::uint64_t) { return a; }
};

// Variance in one pass. Summing x and x^2 and subtracting at the end cancels catastrophically when
// the mean is large against the spread; instead every partial carries (count, mean, M2 = sum of
// squared deviations from its own mean), and two partials merge exactly (Chan, Golub, LeVeque
// 1979).
template <class W>
struct Moments {
  W count, mean, m2;  // no default member initialisers: __shared__ arrays of it must be trivial
};

template <class T>
struct Variance {
  // int32: moments in double
  using W = std::conditional_t<std::is_integral_v<wide_t<T>>, double, wide_t<T>>;
  using Acc = Moments<W>;
  using Out = W;
  static __device__ __forceinline__ Acc identity() { return {W(0), W(0), W(0)}; }
  static __device__ __forceinline__ Acc transform(wide_t<T> x, std::uint64_t) {
    return {W(1), static_cast<W>(x), W(0)};
  }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) {
    const W count = a.count + b.count;
    if (count == W(0)) return a;  // two empty partials (threads that had no input)
    const W delta = b.mean - a.mean;
    const W share_b = b.count / count;  // the one division per merge
    // With an empty side share_b is 0 or 1 and the other side comes back unchanged, bit for bit.
    return {count, a.mean + delta * share_b, a.m2 + b.m2 + delta * delta * a.count * share_b};
  }
  // A whole 16-byte pack at once: its own mean and M2 in a few adds, then one merge, so the thread
  // pays one division per pack instead of one per element.
  template <unsigned K>
  static __device__ __forceinline__ Acc fold_pack(Acc acc, const wide_t<T> (&v)[K], std::uint64_t) {
    W sum = W(0);
#pragma unroll
    for (unsigned j = 0; j < K; ++j) sum += static_cast<W>(v[j]);
    const W mean = sum * (W(1) / W(K));  // K is a power of two: the reciprocal is exact
    W m2 = W(0);
#pragma unroll
    for (unsigned j = 0; j < K; ++j)
      m2 += (static_cast<W>(v[j]) - mean) * (static_cast<W>(v[j]) - mean);
    return combine(acc, {W(K), mean, m2});
  }
  // Population variance (numpy's ddof=0). An infinite input leaves the mean inf or NaN for good,
  // and then the variance is NaN (PyTorch's rule): mean - mean is 0 only for a finite mean, NaN
  // otherwise.
  static __device__ __forceinline__ Out finish(Acc a, std::uint64_t) {
    return a.mean - a.mean == W(0) ? a.m2 / a.count : a.mean - a.mean;
  }
};

// Argmax/argmin: the value and where it is. Lowest index on ties, so the answer does not depend on
// the order partials meet; NaN counts as beyond every number, and the first NaN wins (PyTorch's
// rule).
template <class W>
struct ValueIndex {
  W value;
  std::uint64_t index;
};

template <class T, bool Largest>
struct ArgExtreme {
  using W = wide_t<T>;
  using Acc = ValueIndex<W>;
  using Out = Acc;
  // Loses to every element: beyond no value, and the highest index, so even an all -inf input picks
  // index 0.
  static __device__ __forceinline__ Acc identity() {
    return {Largest ? lowest<W>() : highest<W>(), ~std::uint64_t{0}};
  }
  static __device__ __forceinline__ Acc transform(W x, std::uint64_t i) { return {x, i}; }
  static __device__ __forceinline__ bool beyond(W a, W b) { return Largest ? a > b : a < b; }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) {
    const bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);
    // NaN beats numbers
    if (a_nan != b_nan) return a_nan ? a : b;
    // a tie: the lower index
    if (a_nan || a.value == b.value) return a.index < b.index ? a : b;
    return beyond(a.value, b.value) ? a : b;
  }
  // Within a thread the elements come in increasing index order, so a tie always keeps what is
  // there: the full combine shrinks to one comparison (and a NaN check) per element. The identity's
  // index takes any element, so an input of all -inf still yields index 0.
  template <unsigned K>
  static __device__ __forceinline__ Acc fold_pack(Acc acc, const W (&v)[K], std::uint64_t first) {
#pragma unroll
    for (unsigned j = 0; j < K; ++j)
      if (beyond(v[j], acc.value) || (is_nan(v[j]) && !is_nan(acc.value)) ||
          acc.index == ~std::uint64_t{0})
        acc = {v[j], first + j};
    return acc;
  }
  static __device__ __forceinline__ Out finish(Acc a, std::uint64_t) { return a; }
};
template <class T>
using ArgMax = ArgExtreme<T, true>;
template <class T>
using ArgMin = ArgExtreme<T, false>;

// Not an operator a user asks for: the measure of one. An input is a chain of no combines, and a
// combine is one link longer than the longer of the two chains it joins, so the output is the
// longest chain of combines from any input to it: the steps the reduction takes one after another,
// however many threads share the rest (PMPP's "steps"). A plan's depth (lesson 18's ops_depth,
// 19's rows_depth, 20's columns_depth) is its bound; the grades of lessons 18-20 run the student's
// kernel with this operator, and a fold that one thread walks alone, where the lesson shares it out
// among many and joins them in a tree, comes out longer.
template <class T>
struct Depth {
  using Acc = std::uint32_t;
  using Out = Acc;
  static __device__ __forceinline__ Acc identity() { return 0; }
  static __device__ __forceinline__ Acc transform(wide_t<T>, std::uint64_t) { return 0; }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return (a > b ? a : b) + 1; }
  static __device__ __forceinline__ Out finish(Acc a, std::uint64_t) { return a; }
};

// Folds one pack of K consecutive elements (the first at index `first`, after every element already
// in acc) into acc: the operator's own fold_pack where it has one, else a pairwise tree of
// combines.
template <class Op, class W, unsigned K>
__device__ __forceinline__ typename Op::Acc fold_pack(typename Op::Acc acc, const W (&v)[K],
                                                      std::uint64_t first) {
  if constexpr (requires { Op::fold_pack(acc, v, first); }) {
    return Op::fold_pack(acc, v, first);
  } else {
    // Each value transformed, then folded in pairs, ((v0 v1) (v2 v3)): lesson 12's order for floats
    typename Op::Acc t[K];
#pragma unroll
    for (unsigned j = 0; j < K; ++j) t[j] = Op::transform(v[j], first + j);
#pragma unroll
    for (unsigned width = K / 2; width > 0; width /= 2)
#pragma unroll
      for (unsigned j = 0; j < width; ++j) t[j] = Op::combine(t[2 * j], t[2 * j + 1]);
    return Op::combine(acc, t[0]);
  }
}

RL_NAMESPACE_END
