// ReduceLab: one include for kernel headers that must compile under nvcc (real GPU)
// and under g++ (the CPU SIMT simulator in common/sim/).
#pragma once
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#define RL_BACKEND_NS backend_gpu
#else
#include "common/sim/cuda_sim.h"
#define RL_BACKEND_NS backend_sim
#endif

// Everything a kernel file defines sits between RL_NAMESPACE_BEGIN and RL_NAMESPACE_END: namespace
// rl and, inside it, the inline namespace of the backend it is compiled for (rl::backend_gpu or
// rl::backend_sim). Source code says rl::sequential_addressing either way, while the two compiled
// copies get different symbol names and link side by side into one executable. The one macro pair,
// defined once here (as CUB does with CUB_NAMESPACE_BEGIN).
#define RL_NAMESPACE_BEGIN \
  namespace rl {           \
  inline namespace RL_BACKEND_NS {
#define RL_NAMESPACE_END \
  }                      \
  }

#if defined(__CUDACC__)
namespace rl {
// The block's dynamic shared memory, viewed as T (the simulator's is in
// common/sim/kernel_launch.h).
template <class T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char rl_dynamic_smem[];
  return reinterpret_cast<T*>(rl_dynamic_smem);
}
}  // namespace rl
#endif
