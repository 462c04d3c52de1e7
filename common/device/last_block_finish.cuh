#pragma once
// Lesson 12's finish, for the single-pass kernels of lessons 13 and 14: thread 0 publishes this
// block's `sum` as partials[slot] and takes a ticket from `published` (a __device__ counter of the
// calling lesson's own, zero at first, and left at zero by the last ticket); the block holding the
// last of `count` tickets adds partials [0, count) in a fixed order with `reduce` (a block reduce
// that leaves the total in thread 0) and writes out[0]. Every thread of the block calls it.
#include "common/device/traced.h"

RL_NAMESPACE_BEGIN

template <unsigned Block, class Trace, class BlockReduce>
__device__ __forceinline__ void publish_and_finish(unsigned int* published, Float<Trace> sum,
                                                   unsigned slot, unsigned count,
                                                   Out<Trace> partials, Out<Trace> out,
                                                   BlockReduce reduce,
                                                   unsigned line = __builtin_LINE()) {
  const CallSite<Trace> site(line);  // traced: this work is the calling line's
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[slot] = sum;
    __threadfence();  // release: the partial is visible before the ticket says it is there
    is_last = atomicInc(published, count - 1) == count - 1;
    if (is_last) __threadfence();  // acquire: the reads of the partials below come after the ticket
  }
  __syncthreads();  // also ends the first block reduce's use of its shared words
  if (!is_last) return;
  Float<Trace> total = 0.0f;
  for (unsigned b = threadIdx.x; b < count; b += Block) total += __ldcg(partials + b);
  total = reduce(total);
  if (threadIdx.x == 0) out[0] = total;
}

RL_NAMESPACE_END
