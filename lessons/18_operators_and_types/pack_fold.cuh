#pragma once
// Lesson 18: how one 16-byte load (common/device/pack_load.cuh) joins a thread's running partial.
// The default widens the load's elements and folds them through the operator (reduce_ops.cuh's
// fold_pack). argmax and argmin of 16-bit floats get a cheaper fold of their own, below: there the
// per-element work, not DRAM, was the limit.
#include <cstdint>
#include <cstring>

#include "common/cuda_compat.h"
#include "common/device/pack_load.cuh"
#include "common/device/reduce_ops.cuh"

RL_NAMESPACE_BEGIN

// A thread folds its loads in three steps: start(), then fold(state, load, first) for each load in
// increasing index order (`first`: the index of the load's first element), then finish(state, in)
// turns the state into the operator's partial. By default the state is that partial.
template <class Op, class T>
struct PackFold {
  using State = typename Op::Acc;
  static __device__ __forceinline__ State start() { return Op::identity(); }
  static __device__ __forceinline__ State fold(State acc, const int4& raw, std::uint64_t first) {
    wide_t<T> v[pack_size<T>];
    widen_pack<T>(raw, v);
    return fold_pack<Op>(acc, v, first);
  }
  static __device__ __forceinline__ typename Op::Acc finish(State acc, const T*) { return acc; }
};

// Two 16-bit floats in one 32-bit register (the simulator has them too: common/sim/half_types.h).
template <class T>
struct PairOf;
template <>
struct PairOf<__half> {
  using type = __half2;
};
template <>
struct PairOf<__nv_bfloat16> {
  using type = __nv_bfloat162;
};

// argmax/argmin of 16-bit floats. Folding element by element costs, for each of a load's 8 values,
// a widening, a comparison, a NaN test and a select of a value and a 64-bit index: about 60
// instructions per 16 bytes, more than the GPU can issue while DRAM delivers them. Instead:
//   1. the load's extreme in packed instructions: 4 pairs -> 2 -> 1 (__hmax2_nan: two lanes at a
//      time, and NaN in any lane gives NaN), then the last pair's two lanes in float;
//   2. that one value against the running best; the load replaces it only when strictly beyond (a
//      tie keeps the earlier load, as a thread's loads come in increasing index order) or when it
//      brings the first NaN (once the best is NaN nothing replaces it: the first NaN wins). What is
//      kept is the value and where its load starts, not the element's index;
//   3. the winning load's 16 bytes stay in the state (four selects per load: cheaper than reading
//      them again at the end, which cost every thread one more DRAM round trip as its last act);
//      at the end the element is the first lane equal to the best, or the first NaN: the lowest
//      index, as the rule asks.
// About a dozen instructions per load. The block and grid combine (ArgExtreme::combine) is
// unchanged.
template <class T, bool Largest>
struct PackedArgExtreme {
  using Op = ArgExtreme<T, Largest>;
  using Pair = typename PairOf<T>::type;
  static constexpr std::uint64_t none = ~std::uint64_t{0};
  struct State {
    float best;  // the extreme of the loads so far (NaN once one held a NaN)
    // the index of the first element of the load it came from; `none` before any
    std::uint64_t first;
    int4 raw;  // that load
  };
  static __device__ __forceinline__ Pair extreme(Pair a, Pair b) {
    return Largest ? __hmax2_nan(a, b) : __hmin2_nan(a, b);
  }

  static __device__ __forceinline__ State start() { return {Op::identity().value, none, int4{}}; }
  static __device__ __forceinline__ State fold(State s, const int4& raw, std::uint64_t first) {
    Pair p[4];
    std::memcpy(p, &raw, sizeof(raw));
    const Pair e = extreme(extreme(p[0], p[1]), extreme(p[2], p[3]));
    const float lo = __low2float(e), hi = __high2float(e);
    const float m = is_nan(lo) || Op::beyond(lo, hi) ? lo : hi;  // NaN when either lane is
    // The first load is always taken, so that even an all -inf input has an index.
    if (s.first == none || (!is_nan(s.best) && (Op::beyond(m, s.best) || is_nan(m))))
      s = {m, first, raw};
    return s;
  }
  static __device__ __forceinline__ typename Op::Acc finish(State s, const T*) {
    if (s.first == none) return Op::identity();  // this thread had no whole load
    wide_t<T> v[pack_size<T>];
    widen_pack<T>(s.raw, v);
    const bool want_nan = is_nan(s.best);
#pragma unroll
    for (unsigned j = 0; j < pack_size<T>; ++j)
      // == also matches -0 with +0
      if (want_nan ? is_nan(v[j]) : v[j] == s.best) return {v[j], s.first + j};
    return {s.best, s.first};  // not reached: the best is one of the load's values
  }
};
template <bool Largest>
struct PackFold<ArgExtreme<__half, Largest>, __half> : PackedArgExtreme<__half, Largest> {};
template <bool Largest>
struct PackFold<ArgExtreme<__nv_bfloat16, Largest>, __nv_bfloat16>
    : PackedArgExtreme<__nv_bfloat16, Largest> {};

RL_NAMESPACE_END
