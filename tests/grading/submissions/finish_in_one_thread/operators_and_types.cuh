#pragma once
// Lesson 18: lesson 12's single pass with the operator and the element type as parameters. Each
// thread folds 16-byte packs through Op (reduce_ops.cuh), each block combines through block_reduce,
// and the last block to finish combines the blocks' partials in a fixed order: every operator,
// every type, the same bits every run. The kernels only: the launch is plan.cuh's.
#include <cstdint>

#include "common/cuda_compat.h"
#include "common/device/block_reduce.cuh"
#include "common/device/pack_load.cuh"
#include "common/device/reduce_ops.cuh"
#include "lessons/18_operators_and_types/pack_fold.cuh"

RL_NAMESPACE_BEGIN

// Lesson 12's ticket counter, one of its own: zero at load time, and atomicInc wraps it back to
// zero when the last block of a launch takes its ticket.
__device__ unsigned int op_blocks_finished = 0;

// One thread's share of in[0, n): lesson 12's interleaved walk over 16-byte packs, in batches of
// LoadsInFlight loads; the elements before the first 16-byte boundary (head) and after the last
// whole pack (tail) one by one.
template <class Op, class T, unsigned Block, unsigned LoadsInFlight = 4>
__device__ __forceinline__ typename Op::Acc thread_fold(const T* in, std::uint64_t n) {
  constexpr unsigned K = pack_size<T>, L = LoadsInFlight;
  const std::uint64_t thread = std::uint64_t{blockIdx.x} * Block + threadIdx.x;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * Block;
  const std::uint64_t to_boundary = (K - reinterpret_cast<std::uintptr_t>(in) / sizeof(T) % K) % K;
  const std::uint64_t head = to_boundary < n ? to_boundary : n;
  const std::uint64_t packs = (n - head) / K;
  const T* body = in + head;  // 16-byte aligned
  // A load joins the thread's state through PackFold (pack_fold.cuh): by default the state is the
  // operator's partial and each element goes through fold_pack; 16-bit argmax keeps less per load.
  using Fold = PackFold<Op, T>;
  typename Fold::State state = Fold::start();
  std::uint64_t p = thread;
  // Software pipelined: the next batch's loads are issued before this batch is folded, so the
  // thread has loads in flight while it computes. Variance and argmax spend enough instructions per
  // 16-byte load (of 16-bit floats) that a thread which waited, then computed, left DRAM idle
  // meanwhile. Loads are folded in increasing index order within the thread: argmax's folds rely on
  // it.
  if (p + (L - 1) * stride < packs) {
    int4 batch[L];
#pragma unroll
    for (unsigned k = 0; k < L; ++k) batch[k] = load_raw(body + (p + k * stride) * K);
    for (;;) {
      const std::uint64_t q = p + L * stride;
      const bool more = q + (L - 1) * stride < packs;
      int4 next[L];
      // in flight during the folds
      if (more)
#pragma unroll
        for (unsigned k = 0; k < L; ++k) next[k] = load_raw(body + (q + k * stride) * K);
#pragma unroll
      for (unsigned k = 0; k < L; ++k)
        state = Fold::fold(state, batch[k], head + (p + k * stride) * K);
      p = q;
      if (!more) break;
#pragma unroll
      for (unsigned k = 0; k < L; ++k) batch[k] = next[k];
    }
  }
  for (; p < packs; p += stride) state = Fold::fold(state, load_raw(body + p * K), head + p * K);
  typename Op::Acc acc = Fold::finish(state, in);
  // Head and tail through the full combine, which holds in any order.
  const std::uint64_t tail = head + packs * K;
  if (thread < head) acc = Op::combine(acc, Op::transform(Widen<T>::from(in[thread]), thread));
  if (thread < n - tail)
    acc = Op::combine(acc, Op::transform(Widen<T>::from(in[tail + thread]), tail + thread));
  return acc;
}

// At least two blocks an SM: registers capped at 64 a thread. The pipelined loop holds two batches
// of loads, and with variance's double-precision moments (float64, int32) the compiler would take
// 66 registers and leave one block (a quarter of the SM's threads) to keep DRAM busy.
template <class Op, class T, unsigned Block, unsigned LoadsInFlight = 4>
__global__ void __launch_bounds__(Block, 2)
    reduce_op(const T* in, std::uint64_t n, typename Op::Acc* partials, typename Op::Out* out) {
  const typename Op::Acc mine =
      block_reduce<Op, Block>(thread_fold<Op, T, Block, LoadsInFlight>(in, n));
  // Lesson 12's finish: publish the partial, fence, take a ticket; the last block combines them
  // all.
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = mine;
    __threadfence();  // the partial is visible in L2 before the ticket says so
    is_last = atomicInc(&op_blocks_finished, gridDim.x - 1) == gridDim.x - 1;
    if (is_last) __threadfence();  // acquire: the reads of the partials below come after the ticket
  }
  __syncthreads();  // also separates the two block_reduce calls
  if (!is_last) return;
  // Thread 0 folds every block's partial alone, in block order: right, and the same bits every
  // run, but a chain of gridDim.x combines while the block's other threads wait.
  if (threadIdx.x == 0) {
    typename Op::Acc total = Op::identity();
    for (unsigned b = 0; b < gridDim.x; ++b) total = Op::combine(total, load_l2(partials + b));
    out[0] = Op::finish(total, n);
  }
}

RL_NAMESPACE_END
