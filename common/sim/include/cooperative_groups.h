// <cooperative_groups.h> for g++: the simulator's cooperative groups (common/sim/cooperative_groups.h).
// This folder is on the include path of C++ (g++) sources only; nvcc finds CUDA's own header.
#pragma once
#if defined(__CUDACC__)
#error "common/sim/include is the simulator's: nvcc must use CUDA's <cooperative_groups.h>"
#endif
#include "common/sim/cooperative_groups.h"
