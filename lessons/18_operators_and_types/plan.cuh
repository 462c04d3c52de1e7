#pragma once
// Lesson 18's launch plan: one launch of reduce_op (operators_and_types.cuh) over a persistent grid
// of 512-thread blocks, for every operator on every type; its scratch and its depth (the
// tolerance). ops_kernels.cu includes it after the kernel header, and CMake compiles that file
// twice: by nvcc for the GPU and by g++ for the simulator.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/host/plan.h"
#include "common/host/reference.h"
#include "common/launch.h"
#include "lessons/18_operators_and_types/operators_and_types.cuh"

RL_NAMESPACE_BEGIN

// 4 blocks a full SM: finer steps where registers limit occupancy
inline constexpr unsigned ops_block = 512;
// below this many a block is not worth launching
inline constexpr unsigned ops_packs_per_thread = 4;

// The persistent grid: as many blocks as fit on the GPU at once (asked of the compiled kernel,
// since the accumulator's registers decide it), no more than the input can feed.
template <class Op, class T>
unsigned ops_grid(std::uint64_t n, const DeviceShape& s) {
  std::uint64_t per_sm = s.max_threads_per_sm / ops_block;
#if defined(__CUDACC__)
  int fit = 0;
  RL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, reduce_op<Op, T, ops_block>,
                                                              ops_block, 0));
  per_sm = fit > 0 ? static_cast<std::uint64_t>(fit) : 1;
#endif
  const std::uint64_t useful =
      ceil_div(n > 0 ? n : 1, std::uint64_t{ops_block} * ops_packs_per_thread * pack_size<T>);
  return static_cast<unsigned>(std::min<std::uint64_t>(s.sm_count * per_sm, useful));
}

template <class Op, class T>
std::size_t ops_scratch_bytes(std::uint64_t n, const DeviceShape& s) {
  return ops_grid<Op, T>(n, s) * sizeof(typename Op::Acc);
}

// Reduces n elements at device address `in` into one Op::Out at `out`; scratch holds the partials.
// One launch, the last block finishing:
//   reduce_op<Op, T, ops_block><<<ops_grid<Op, T>(n, s), ops_block, 0, stream>>>(in, n, partials,
//                                                                                 out);
template <class Op, class T>
void reduce_with(const T* in, std::uint64_t n, void* scratch, typename Op::Out* out,
                 const DeviceShape& s, void* stream) {
  launch("reduce_op", reduce_op<Op, T, ops_block>, dim3(ops_grid<Op, T>(n, s)), dim3(ops_block), 0,
         stream, in, n, static_cast<typename Op::Acc*>(scratch), out);
}

// The longest chain of combines from one input to the result: a thread's packs, one pack's own
// chain (at most K: variance adds its K in a row), head and tail, two block trees, the finish's
// run.
template <class Op, class T>
std::uint64_t ops_depth(std::uint64_t n, const DeviceShape& s) {
  const std::uint64_t grid = ops_grid<Op, T>(n, s);
  const std::uint64_t per_thread = ceil_div(n, grid * ops_block * pack_size<T>);
  return per_thread + pack_size<T> + 2 + 2 * summation_depth(ops_block, 0) +
         ceil_div(grid, ops_block);
}

RL_NAMESPACE_END
