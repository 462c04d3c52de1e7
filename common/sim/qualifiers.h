// CUDA declaration qualifiers for g++. Macros are unavoidable here: they are keywords
// (or attributes) to nvcc and must vanish or become plain C++ for g++.
#pragma once

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
// No __noinline__: libstdc++ 13 spells the attribute __attribute__((__noinline__)), which such a
// macro would break; kernels here do not need it.
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

// A static __shared__ variable has one instance per running block. The simulator runs
// one block at a time on each host thread (all of the block's CUDA threads are fibers
// on that host thread), so a function-local `static thread_local` is exactly that.
// Note: the storage is reused by the next block that the same host thread runs; like
// on a GPU its contents are unspecified at block start (they are NOT re-poisoned).
#define __shared__ static thread_local
