// clang-format off
// The CUDA shim for g++: everything a ReduceLab kernel sees when it is compiled for the
// CPU SIMT simulator (included by common/cuda_compat.h when __CUDACC__ is not defined).
//
//   qualifiers.h    __global__ __device__ __host__ __forceinline__ __launch_bounds__ __align__ __shared__
//   vector_types.h  uint3 dim3 float2 float4 int2 int4 uint4 double2 ... make_*
//   builtins.h      threadIdx blockIdx blockDim gridDim warpSize
//   sync.h          __syncthreads(_count/_and/_or) __threadfence(_block/_system)
//   warp.h          __syncwarp __shfl(_up/_down/_xor)_sync __ballot_sync __all_sync __any_sync __activemask
//   atomics.h       atomicAdd/Sub/Max/Min/CAS/Exch/Inc/Dec/And/Or/Xor
//   intrinsics.h    __ldg __popc __clz __ffs __brev __float_as_int ...
//   half_types.h    __half __nv_bfloat16 (storage) __half2float __float2half_rn __bfloat162float ...
//   errors.h        rl::sim::KernelError rl::sim::kernel_error
//   options.h       rl::sim::Schedule rl::sim::Options set_options options
//   kernel_launch.h rl::sim::launch rl::dynamic_shared<T>
//   racecheck.h     rl::sim::SharedView VolatileSharedView GlobalView: memory the race detector sees
//   pdl.h           cudaGridDependencySynchronize cudaTriggerProgrammaticLaunchCompletion
// Included by name, as with CUDA (common/sim/include is on g++'s include path):
//   <cooperative_groups.h>         cooperative_groups.h: thread_block, tiles, cluster_group
//   <cooperative_groups/reduce.h>  cg_reduce.h: cooperative_groups::reduce, plus, less, greater
//   <cuda/barrier>                 bulk_copy.h: cuda::barrier, cuda::memcpy_async
// clang-format on
#pragma once

#include "common/sim/atomics.h"
#include "common/sim/builtins.h"
#include "common/sim/capture.h"
#include "common/sim/errors.h"
#include "common/sim/half_types.h"
#include "common/sim/intrinsics.h"
#include "common/sim/kernel_launch.h"
#include "common/sim/options.h"
#include "common/sim/pdl.h"
#include "common/sim/qualifiers.h"
#include "common/sim/racecheck.h"
#include "common/sim/sync.h"
#include "common/sim/vector_types.h"
#include "common/sim/warp.h"
