// <cooperative_groups/reduce.h> for g++: cooperative_groups::reduce on the simulator.
#pragma once
#if defined(__CUDACC__)
#error "common/sim/include is the simulator's: nvcc must use CUDA's <cooperative_groups/reduce.h>"
#endif
#include "common/sim/cg_reduce.h"
