// ReduceLab: one include for kernel headers that must compile under nvcc (real GPU)
// and under g++ (the CPU SIMT simulator in common/sim/).
//
// RL_BACKEND_NS is an inline namespace (rl::backend_gpu or rl::backend_sim) that every kernel
// header opens: source code says rl::sequential_addressing either way, while the two compiled
// copies get different symbol names and link side by side into one executable.
#pragma once
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define RL_BACKEND_NS backend_gpu
namespace rl { template <class T> __device__ __forceinline__ T* dynamic_shared() { extern __shared__ __align__(16) unsigned char rl_dynamic_smem[]; return reinterpret_cast<T*>(rl_dynamic_smem); } }
#else
#include "common/sim/cuda_sim.h"
#define RL_BACKEND_NS backend_sim
// rl::dynamic_shared<T>() is provided by cuda_sim.h: the running block's dynamic shared buffer
#endif
