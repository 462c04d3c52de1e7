// cooperative_groups::reduce and its function objects on the simulator (what
// <cooperative_groups/reduce.h> declares): a tile's threads combine their values with `op`; every
// thread of the tile gets the result. The order is a butterfly over xor shuffles (half the tile
// apart first), as CUDA's own implementation for a tile does, so float results round alike.
#pragma once
#include "common/sim/cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {  // the smaller one: reduce(tile, v, less<T>()) is the minimum
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger one: reduce(tile, v, greater<T>()) is the maximum
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

template <unsigned Size, class Parent, class T, class Op>
auto reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op)
    -> decltype(op(value, value)) {
  auto total = value;
  for (unsigned lanes_apart = Size / 2; lanes_apart > 0; lanes_apart /= 2)
    total = op(total, tile.shfl_xor(total, lanes_apart));
  return total;
}

}  // namespace cooperative_groups
