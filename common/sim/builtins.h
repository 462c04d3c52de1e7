// The CUDA built-in variables. They are per host thread; the block scheduler sets
// blockIdx/blockDim/gridDim when it starts a block and threadIdx before it resumes
// each CUDA thread (fiber), so kernel code reads the values of the thread running now.
#pragma once
#include "common/sim/vector_types.h"

inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};
inline constexpr int warpSize = 32;
