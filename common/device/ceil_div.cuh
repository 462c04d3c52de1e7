#pragma once
// ceil(a / b), on the host and in a kernel: the grid sizes every plan computes (common/launch.h
// includes this file), and the loads of a row or a column that lessons 19 and 20's kernels count.
#include <cstdint>

#include "common/cuda_compat.h"

RL_NAMESPACE_BEGIN

__host__ __device__ constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

RL_NAMESPACE_END
